import { parseArgs } from 'node:util';
import { createAppContext } from '../app/create-context.ts';
import { type ReconciliationReport, reconcileWithGateways } from '../app/gateways/reconcile-with-gateway.ts';
import { type Clock, systemClock } from '../clock.ts';
import { type Config, ConfigError } from '../config.ts';
import { GatewayRegistry } from '../gateways/registry.ts';
import { createSimConnector } from '../gateways/sim/connector.ts';
import { simSecrets } from '../gateways/sim/secrets.ts';
import { SharedTestClock } from '../shared-test-clock.ts';
import { openDatabase } from '../storage/open.ts';

/** The exit code when differences remain that this run did not (or could not) repair. */
export const EXIT_UNREPAIRED = 3;
const DEFAULT_WINDOW_MS = 24 * 60 * 60 * 1000;

function parseInstant(name: string, value: string | undefined, fallback: Date): Date {
  if (value === undefined) return fallback;
  const ms = Date.parse(value);
  if (Number.isNaN(ms))
    throw new ConfigError(`--${name} must be an ISO 8601 instant, e.g. 2026-01-31T00:00:00Z`);
  return new Date(ms);
}

function table(report: ReconciliationReport): string {
  const lines = [
    `Reconciliation ${report.from} .. ${report.to}`,
    ...report.gateways.map(
      (g) =>
        `  ${g.gatewayId}${g.gatewayAccountId ? ` (account ${g.gatewayAccountId} of ${g.merchantId})` : ''} (${g.livemode ? 'live' : 'test'}): ${g.charges} charges, ${g.refunds} refunds compared`,
    ),
    ...report.skipped.map((id) => `  ${id}: keeps no books Paygate can read; not compared`),
  ];
  if (report.differences.length === 0) return `${lines.join('\n')}\nNo differences.\n`;
  const rows = [
    [
      'gateway',
      'object',
      'difference',
      'paygate id',
      'gateway ref',
      'paygate',
      'gateway',
      'repaired',
      'detail',
    ],
    ...report.differences.map((d) => [
      d.gatewayAccountId ?? d.gatewayId,
      d.object,
      d.kind,
      d.paygateId ?? '-',
      d.gatewayReference ?? '-',
      d.paygateStatus ?? '-',
      d.gatewayStatus ?? '-',
      d.repaired ? 'yes' : 'no',
      d.detail,
    ]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length))) ?? [];
  const body = rows.map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  return `${[...lines, '', ...body].join('\n')}\n${report.unrepaired} difference(s) remain unrepaired.\n`;
}

/**
 * `paygate reconcile [--from <instant>] [--to <instant>] [--dry-run] [--json]`: compares the
 * window (default the last 24 hours) with the books of the simulated gateway at PAYGATE_SIM_URL
 * (default the one `paygate start` runs on PAYGATE_SIM_PORT; none when neither is set) and of every
 * merchant's Stripe and Adyen account, repairs what it can unless `--dry-run`, prints a table (or
 * JSON) and exits 3 while differences remain unrepaired.
 */
export async function reconcileCommand(config: Config, argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const simUrl = config.simUrl ?? (config.simPort !== null ? `http://127.0.0.1:${config.simPort}` : null);
  const db = await openDatabase(config);
  const testClock = config.testClock ? new SharedTestClock(db) : null;
  try {
    await testClock?.start();
    const clock: Clock = testClock ?? systemClock;
    const to = parseInstant('to', values.to, clock.now());
    const from = parseInstant('from', values.from, new Date(to.getTime() - DEFAULT_WINDOW_MS));
    if (from >= to) throw new ConfigError('--from must be before --to');
    const secrets = simSecrets(config.masterKey);
    const sim =
      simUrl === null
        ? []
        : [
            createSimConnector({
              baseUrl: simUrl,
              apiSecret: secrets.apiSecret,
              notificationSecret: secrets.notificationSecret,
              clock,
            }),
          ];
    const ctx = createAppContext({
      db,
      clock,
      gateways: new GatewayRegistry(sim),
      masterKey: config.masterKey,
      publicUrl: config.publicUrl,
    });
    const report = await reconcileWithGateways(ctx, { from, to, repair: !values['dry-run'] });
    process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : table(report));
    return report.unrepaired > 0 ? EXIT_UNREPAIRED : 0;
  } finally {
    await testClock?.stop();
    await db.close();
  }
}
