import type { ChargeResource, Ledger, RefundResource } from './ledger.ts';

/** One account at the gateway: its API secret, and where and how its notifications go. */
export interface SimAccount {
  livemode: boolean;
  apiSecret: string;
  notificationSecret: string;
}

/** What the route modules share: the books, the notifications and the few switches of the simulator. */
export interface SimContext {
  ledger: Ledger;
  /** The accounts that may call the API: the test account, and the live-capable one when configured. */
  accounts: readonly SimAccount[];
  responseDelayMs: number;
  /** Waits as long as a hanging charge withholds its answer (cut short when the simulator closes). */
  hang(): Promise<void>;
  /** Sends a notification about a charge or refund to the account that made it. */
  notify(subject: 'charge', data: ChargeResource): void;
  notify(subject: 'refund', data: RefundResource): void;
  /** Settles a pending refund and notifies the service. */
  settleRefund(refundId: string, outcome: 'succeeded' | 'failed'): RefundResource;
  /** Settles the pending refunds whose settle-late delay has passed on the simulator's clock. */
  settleDueRefunds(): void;
}
