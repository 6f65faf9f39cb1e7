import { createHmac } from 'node:crypto';

export interface SimSecrets {
  /** The test account's API secret (`Authorization: Bearer`). */
  apiSecret: string;
  notificationSecret: string;
  /** The live-capable account's, used only where a test configures gateway `sim_live`. */
  liveApiSecret: string;
  liveNotificationSecret: string;
}

function derive(masterKey: Buffer, label: string): string {
  return createHmac('sha256', masterKey).update(`paygate-sim:${label}`).digest('base64url');
}

/**
 * The simulator's shared secrets, derived from PAYGATE_MASTER_KEY: `paygate sim` and every service
 * process of a deployment compute the same ones without any secret to hand around, and none of
 * them reveals the master key.
 */
export function simSecrets(masterKey: Buffer): SimSecrets {
  return {
    apiSecret: derive(masterKey, 'api-secret'),
    notificationSecret: derive(masterKey, 'notification-secret'),
    liveApiSecret: derive(masterKey, 'live-api-secret'),
    liveNotificationSecret: derive(masterKey, 'live-notification-secret'),
  };
}
