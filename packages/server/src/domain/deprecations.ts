import { deprecatableClients } from '@paygate/contract';
import type { ClientIdentity } from './client-user-agent.ts';

export { deprecatableClients };
export type DeprecatableClient = (typeof deprecatableClients)[number];

/** The contract versions a deprecation may name. */
export const contractVersions = ['v1'] as const;

/** What an announcement is about: client versions below a bound, or every caller of a contract. */
export type DeprecationScope =
  | { clients: { name: DeprecatableClient; below: string }[] }
  | { contract: (typeof contractVersions)[number] };

interface ParsedVersion {
  core: [number, number, number];
  /** Pre-release identifiers (`rc.1` is ['rc', '1']); empty for a release. */
  pre: string[];
}

// MAJOR.MINOR.PATCH with an optional pre-release, as the clients send it in their User-Agent
// (domain/client-user-agent.ts); build metadata (`+...`) is accepted and ignored, as SemVer says.
const VERSION =
  /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/;

/** The parts of a semantic version, or null when `text` is not one. */
export function parseVersion(text: string): ParsedVersion | null {
  const match = VERSION.exec(text);
  if (!match) return null;
  return {
    core: [Number(match[1]), Number(match[2]), Number(match[3])],
    pre: match[4] ? match[4].split('.') : [],
  };
}

const NUMERIC = /^\d+$/;

function compareIdentifiers(a: string, b: string): number {
  const aNumeric = NUMERIC.test(a);
  const bNumeric = NUMERIC.test(b);
  // SemVer 11.4: numeric identifiers compare as numbers and sort before alphanumeric ones.
  if (aNumeric && bNumeric) return Math.sign(Number(a) - Number(b));
  if (aNumeric !== bNumeric) return aNumeric ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * SemVer precedence of two versions (-1, 0 or 1): `1.9.0 < 1.10.0`, `2.0.0-rc.1 < 2.0.0`,
 * `1.0.0-alpha < 1.0.0-alpha.1 < 1.0.0-beta.2 < 1.0.0-beta.11`. Throws on a malformed version.
 */
export function compareVersions(a: string, b: string): number {
  const left = parseVersion(a);
  const right = parseVersion(b);
  if (!left || !right) throw new Error(`not a semantic version: ${left ? b : a}`);
  for (let i = 0; i < 3; i += 1) {
    const difference = Math.sign((left.core[i] as number) - (right.core[i] as number));
    if (difference !== 0) return difference;
  }
  // A pre-release comes before its release.
  if (left.pre.length === 0 || right.pre.length === 0) {
    return left.pre.length === right.pre.length ? 0 : left.pre.length === 0 ? 1 : -1;
  }
  for (let i = 0; i < Math.min(left.pre.length, right.pre.length); i += 1) {
    const difference = compareIdentifiers(left.pre[i] as string, right.pre[i] as string);
    if (difference !== 0) return difference;
  }
  return Math.sign(left.pre.length - right.pre.length);
}

/**
 * Whether a client seen in telemetry is affected: a named client older than the bound, or, for a
 * contract, any caller at all (every request of the API speaks it). A version telemetry could not
 * read is never taken for an older one.
 */
export function affectsClient(scope: DeprecationScope, seen: ClientIdentity): boolean {
  if ('contract' in scope) return true;
  return scope.clients.some(
    (bound) =>
      bound.name === seen.client &&
      parseVersion(seen.version) !== null &&
      compareVersions(seen.version, bound.below) < 0,
  );
}

/** The day a deprecation withdraws, as `YYYY-MM-DD`: a real calendar day after `today`. */
export function withdrawalProblem(withdrawOn: string, today: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(withdrawOn);
  if (!match) return 'must be a date as YYYY-MM-DD';
  const day = new Date(`${withdrawOn}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== withdrawOn) {
    return 'must be a real calendar day';
  }
  if (withdrawOn <= today) {
    return `must be after today (${today}): merchants are told before anything is withdrawn`;
  }
  return null;
}

/** A problem with one field of what the operator sent, named as the API's field errors are. */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * Reads the `affected` member of an announcement: exactly one of `clients` (each a known client
 * name with a semantic version, each name once) and `contract` (a contract version there is).
 */
export function readDeprecationScope(affected: {
  clients?: { name: string; below: string }[] | undefined;
  contract?: string | undefined;
}): DeprecationScope | FieldProblem {
  const hasClients = affected.clients !== undefined;
  const hasContract = affected.contract !== undefined;
  if (hasClients === hasContract) {
    return {
      field: 'affected',
      message: hasClients
        ? 'must name either clients or contract, not both'
        : 'must name the clients ({"clients": [{"name", "below"}]}) or the contract ({"contract": "v1"}) affected',
    };
  }
  if (affected.contract !== undefined) {
    const contract = contractVersions.find((version) => version === affected.contract);
    if (!contract)
      return { field: 'affected.contract', message: `must be one of: ${contractVersions.join(', ')}` };
    return { contract };
  }
  const clients: { name: DeprecatableClient; below: string }[] = [];
  for (const [index, bound] of (affected.clients ?? []).entries()) {
    const name = deprecatableClients.find((known) => known === bound.name);
    if (!name) {
      return {
        field: `affected.clients.${index}.name`,
        message: `is not a Paygate client; use one of: ${deprecatableClients.join(', ')}`,
      };
    }
    if (!parseVersion(bound.below)) {
      return {
        field: `affected.clients.${index}.below`,
        message: 'must be a semantic version such as 1.4.0 (clients older than it are affected)',
      };
    }
    if (clients.some((earlier) => earlier.name === name)) {
      return { field: `affected.clients.${index}.name`, message: `names ${name} a second time` };
    }
    clients.push({ name, below: bound.below });
  }
  return { clients };
}
