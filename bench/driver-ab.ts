// node-postgres against postgres.js on the statements of whole payments, as the service sends them
// (issue 33, item 2). `npm run bench` runs it too; alone:
//
//   npm run bench:driver                       # 6 alternations of 3 s per driver, 10 connections
//   npm run bench:driver -- --slices 2 --seconds 1 --capture 1   # a quick check
//
// It captures the statements of the full flow from the service of this checkout
// (bench/lib/statement-trace.ts), then replays them through both drivers in alternating slices
// (bench/lib/driver-ab.ts). Under load from other work the rates mean little; the client's CPU
// per statement moves far less.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runDriverAb } from './lib/driver-ab.ts';
import { createFreshDatabase, databaseUrl, dropDatabase } from './lib/postgres.ts';
import { repoRoot } from './lib/processes.ts';
import { capturePaymentTrace } from './lib/statement-trace.ts';

const { values } = parseArgs({
  options: { slices: { type: 'string' }, seconds: { type: 'string' }, capture: { type: 'string' } },
});
const log = (line: string) =>
  process.stderr.write(`[driver ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const database = await createFreshDatabase('paygate_driver_ab');
try {
  const url = databaseUrl(database);
  const { trace } = await capturePaymentTrace({
    databaseUrl: url,
    tmpDir: join(repoRoot, 'bench/tmp'),
    seconds: Number(values.capture ?? 3),
    log,
  });
  const result = await runDriverAb({
    database,
    databaseUrl: url,
    trace,
    slices: Number(values.slices ?? 6),
    secondsPerSlice: Number(values.seconds ?? 3),
    log,
  });
  process.stdout.write(`${JSON.stringify(result.summary, null, 2)}\n${result.verdict}\n`);
} finally {
  await dropDatabase(database);
}
process.exit(0);
