export { fixedTokens, testCards } from './behaviours.ts';
export { DEFAULT_RETENTION, type Retention } from './books.ts';
export type { ChargeResource, RefundResource, SimClock } from './ledger.ts';
export type { NotificationBody, NotificationRecord } from './notifier.ts';
export { type GatewaySim, type GatewaySimOptions, startGatewaySim } from './server.ts';
export { SIGNATURE_HEADER, signNotification } from './signature.ts';
