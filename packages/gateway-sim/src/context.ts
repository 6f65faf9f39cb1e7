import type { Ledger, RefundResource } from './ledger.ts';
import type { Notifier } from './notifier.ts';

/** What the route modules share: the books, the notifier and the few switches of the simulator. */
export interface SimContext {
  ledger: Ledger;
  notifier: Notifier;
  apiSecret: string;
  responseDelayMs: number;
  /** Waits as long as a hanging charge withholds its answer (cut short when the simulator closes). */
  hang(): Promise<void>;
  /** Called once for each refund created pending (to settle it later if so configured). */
  refundPending(refund: RefundResource): void;
  /** Settles a pending refund and notifies the service. */
  settleRefund(refundId: string, outcome: 'succeeded' | 'failed'): RefundResource;
}
