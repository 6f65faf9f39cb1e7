import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rotateMasterKey } from '../app/secrets/rotate-master-key.ts';
import type { Config } from '../config.ts';
import { ConfigError } from '../config-values.ts';
import { openDatabase } from '../storage/open.ts';

const NEW_KEY = 'PAYGATE_NEW_MASTER_KEY';
const MASTER_KEY_HEX = /^[0-9a-fA-F]{64}$/;

/**
 * `paygate rotate-master-key`: re-seals every sealed secret (webhook endpoint secrets, dashboard
 * TOTP secrets, gateway credentials) from the current key (PAYGATE_MASTER_KEY, or the data dir's
 * with the embedded database) to the one in PAYGATE_NEW_MASTER_KEY, in one transaction. The new
 * key comes only from the environment: an argument would be in the shell history and in `ps`.
 * With the embedded database and no PAYGATE_MASTER_KEY, the data dir's key file is replaced after
 * the commit, so the next start uses the new key.
 */
export async function rotateMasterKeyCommand(
  config: Config,
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  if (argv.length > 0) {
    throw new ConfigError(`rotate-master-key takes no arguments; give the new key in ${NEW_KEY}`);
  }
  const newHex = env[NEW_KEY]?.trim() ?? '';
  if (!MASTER_KEY_HEX.test(newHex)) {
    throw new ConfigError(
      `${NEW_KEY} must be exactly 64 hexadecimal characters (32 bytes); the value given has ${newHex.length} characters. Generate one with: openssl rand -hex 32`,
    );
  }
  const db = await openDatabase(config);
  let report: Awaited<ReturnType<typeof rotateMasterKey>>;
  try {
    report = await rotateMasterKey(db, config.masterKey, Buffer.from(newHex, 'hex'));
  } finally {
    await db.close();
  }
  const keptInDataDir = config.databaseUrl === null && !env.PAYGATE_MASTER_KEY?.trim();
  if (keptInDataDir) {
    const path = join(config.dataDir, 'master-key');
    writeFileSync(`${path}.new`, `${newHex.toLowerCase()}\n`, { mode: 0o600 });
    renameSync(`${path}.new`, path);
  }
  process.stdout.write(
    `${JSON.stringify({ ...report, master_key_file_replaced: keptInDataDir }, null, 2)}\n` +
      (keptInDataDir
        ? 'Every sealed secret is now under the new key, which the data dir now keeps.\n'
        : `Every sealed secret is now under the new key: set PAYGATE_MASTER_KEY to it (the value of ${NEW_KEY}) for every process and restart them.\n`),
  );
  return 0;
}
