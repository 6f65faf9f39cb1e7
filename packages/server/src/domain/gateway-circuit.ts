// Gateway health (issue 45, item 3): a circuit per gateway account, fed by the connector's own
// outcomes, which routing reads to skip a gateway that is down without waiting on it. Pure: the
// state is stored where every process sees it (the caller writes each transition guarded by the
// state it was decided on), and every decision takes the instant it is made at.
//
//   closed ──(threshold failures in a row)──▶ open ──(cool-down passed: one probe leased)──▶ half_open
//     ▲                                          ▲                                             │
//     └───────────────(the probe succeeds)───────┼─────────────────────────────────────────────┤
//                                                └──────(the probe fails, or its lease ends)───┘
//
// What counts: a time-out, a 5xx and a connection failure are failures of the gateway. A decline,
// a refusal and any definite answer are successes: the gateway is up and deciding.

export type CircuitStatus = 'closed' | 'open' | 'half_open';

export interface CircuitState {
  status: CircuitStatus;
  /** Failures in a row while closed (reset by any success). */
  consecutiveFailures: number;
  /** When the circuit last opened (null while it never has since it closed). */
  openedAt: Date | null;
  /** While half_open: until when the one probe may run; another is leased after that. */
  probeUntil: Date | null;
}

export interface CircuitPolicy {
  /** Failures in a row that open a closed circuit. */
  failureThreshold: number;
  /** How long an open circuit keeps its gateway out before one probe is let through. */
  coolDownSeconds: number;
  /** How long the probe may take before another may be leased (its answer never came). */
  probeLeaseSeconds: number;
}

export const DEFAULT_CIRCUIT_POLICY: CircuitPolicy = {
  failureThreshold: 5,
  coolDownSeconds: 30,
  probeLeaseSeconds: 20,
};

export const CLOSED_CIRCUIT: CircuitState = {
  status: 'closed',
  consecutiveFailures: 0,
  openedAt: null,
  probeUntil: null,
};

/** How a gateway call ended, for its circuit. */
export type CallHealth = 'answered' | 'failed';

/** The state after a call's outcome. `probe`: whether this call was the half-open circuit's probe. */
export function afterCall(
  state: CircuitState,
  health: CallHealth,
  now: Date,
  policy: CircuitPolicy,
  probe = false,
): CircuitState {
  if (health === 'answered') {
    // Any definite answer shows the gateway up: a probe's closes the circuit; while open, an
    // answer to a call sent before it opened says the same.
    return state.status === 'closed' && state.consecutiveFailures === 0 ? state : CLOSED_CIRCUIT;
  }
  if (state.status === 'half_open' && probe) return openAt(now);
  if (state.status !== 'closed') return state;
  const failures = state.consecutiveFailures + 1;
  return failures >= policy.failureThreshold ? openAt(now) : { ...state, consecutiveFailures: failures };
}

function openAt(now: Date): CircuitState {
  return { status: 'open', consecutiveFailures: 0, openedAt: now, probeUntil: null };
}

/** What a new payment may do with this gateway now, and the state that decision writes. */
export interface Admission {
  /** Whether the gateway may be used: closed, or this call is the probe. */
  admitted: boolean;
  /** This call is the half-open circuit's probe. */
  probe: boolean;
  /** The state to write (the probe's lease) when it differs from the one read; else null. */
  write: CircuitState | null;
}

/**
 * Whether a new payment may go to the gateway. Closed: yes. Open within its cool-down: no. Open
 * past it, or half-open past its probe's lease: this call becomes the probe (its lease written,
 * guarded by the state read, so that of several processes one wins). Half-open within the lease:
 * no, the probe is under way.
 */
export function admit(state: CircuitState, now: Date, policy: CircuitPolicy): Admission {
  if (state.status === 'closed') return { admitted: true, probe: false, write: null };
  const cooled =
    state.status === 'open'
      ? (state.openedAt?.getTime() ?? 0) + policy.coolDownSeconds * 1000 <= now.getTime()
      : (state.probeUntil?.getTime() ?? 0) <= now.getTime();
  if (!cooled) return { admitted: false, probe: false, write: null };
  return {
    admitted: true,
    probe: true,
    write: {
      status: 'half_open',
      consecutiveFailures: 0,
      openedAt: state.openedAt,
      probeUntil: new Date(now.getTime() + policy.probeLeaseSeconds * 1000),
    },
  };
}

/** Whether routing passes the gateway over right now without asking (for the dashboard and metrics). */
export function isOpen(state: CircuitState, now: Date, policy: CircuitPolicy): boolean {
  return !admit(state, now, policy).admitted;
}
