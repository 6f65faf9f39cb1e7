import { createSecretBox, type SecretBox, SecretBoxError } from '../../crypto/secret-box.ts';
import { deriveSubKey } from '../../domain/api-keys.ts';
import type { Database } from '../../storage/db.ts';
import {
  lockSealedValues,
  SEALED_COLUMNS,
  type SealedColumn,
  writeSealedValue,
} from '../../storage/repositories/sealed-secrets.ts';

// Re-seals every sealed secret under a new master key, in one transaction: either every value is
// under the new key or none changed (a failure rolls back). A value that already opens under the
// new key is left as it is, so running the rotation again after it committed (say the operator was
// cut off before switching the configuration) changes nothing and succeeds.

/** The sub-key and the associated data each column was sealed with (app/create-context.ts, totp.ts). */
const SEALING: Record<SealedColumn['table'], { purpose: string; aad: (id: string) => string }> = {
  webhook_endpoints: { purpose: 'webhook-secrets', aad: (id) => id },
  dashboard_totp: { purpose: 'webhook-secrets', aad: (id) => `dashboard-totp:${id}` },
  gateway_accounts: { purpose: 'gateway-credentials', aad: (id) => id },
};

export interface RotationReport {
  /** Values re-sealed under the new key, per `table.column`. */
  resealed: Record<string, number>;
  /** Values found already under the new key (a repeated run). */
  alreadyUnderNewKey: number;
}

function boxFor(masterKey: Buffer, purpose: string): SecretBox {
  return createSecretBox(deriveSubKey(masterKey, purpose).toString('hex'));
}

function opens(box: SecretBox, sealed: string, aad: string): boolean {
  try {
    box.decrypt(sealed, aad);
    return true;
  } catch (error) {
    if (error instanceof SecretBoxError) return false;
    throw error;
  }
}

export async function rotateMasterKey(db: Database, oldKey: Buffer, newKey: Buffer): Promise<RotationReport> {
  if (oldKey.equals(newKey)) throw new Error('the new master key is the current one: nothing to rotate');
  return db.transaction(async (tx) => {
    const report: RotationReport = { resealed: {}, alreadyUnderNewKey: 0 };
    for (const column of SEALED_COLUMNS) {
      const { purpose, aad } = SEALING[column.table];
      const [from, to] = [boxFor(oldKey, purpose), boxFor(newKey, purpose)];
      let count = 0;
      for (const value of await lockSealedValues(tx, column)) {
        if (opens(to, value.sealed, aad(value.id))) {
          report.alreadyUnderNewKey += 1;
          continue;
        }
        let plain: string;
        try {
          plain = from.decrypt(value.sealed, aad(value.id));
        } catch (error) {
          throw new SecretBoxError(
            `${column.table}.${column.column} of ${value.id} opens under neither the current nor the new master key; nothing was changed`,
            { cause: error },
          );
        }
        await writeSealedValue(tx, column, { id: value.id, sealed: to.encrypt(plain, aad(value.id)) });
        count += 1;
      }
      report.resealed[`${column.table}.${column.column}`] = count;
    }
    return report;
  });
}
