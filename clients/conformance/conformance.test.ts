// Runs every conformance scenario (scenarios.ts) against every client driver present, or those in
// PAYGATE_CLIENT_DRIVERS: each driver's conformance/build first, then one driver process per
// client, a scripted misbehaving server, and the real service (started once, on first use).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  buildDriver,
  type Command,
  DriverProcess,
  driverName,
  driversToRun,
  type Reply,
} from './driver-process.ts';
import { freePort, startRealService } from './real-service.mjs';
import {
  assertBackoff,
  type Context,
  type Scenario,
  SECRET_KEY,
  type ServiceEnv,
  scenarios,
} from './scenarios.ts';
import { type ScriptedServer, startScriptedServer } from './scripted-server.ts';

const drivers = driversToRun();

let realService: Promise<{ env: ServiceEnv; stop: () => Promise<void> }> | null = null;
function service(): Promise<ServiceEnv> {
  realService ??= startRealService();
  return realService.then((started) => started.env);
}
after(async () => {
  if (realService) await (await realService).stop();
});

async function runScenario(scenario: Scenario, ctx: Context): Promise<void> {
  if (scenario.run) {
    await scenario.run(ctx);
    return;
  }
  const { base_url_suffix, ...fields } = scenario.configure ?? {};
  const baseUrl =
    (scenario.target === 'refused' ? ctx.refused : ctx.scripted) + ((base_url_suffix as string) ?? '');
  const configured = await ctx.send({
    op: 'configure',
    api_key: SECRET_KEY,
    base_url: baseUrl,
    record_sleeps: true,
    ...fields,
  });
  assert.equal(configured.ok, true, `configure: ${JSON.stringify(configured)}`);
  ctx.script(scenario.steps ?? []);
  const reply = await ctx.send(scenario.command as Command);
  checkReply(scenario, reply, ctx);
}

function checkReply(scenario: Scenario, reply: Reply, ctx: Context): void {
  const expect = scenario.expect ?? {};
  const shown = JSON.stringify(reply);
  if (expect.ok !== undefined) assert.equal(reply.ok, expect.ok, shown);
  if (expect.result !== undefined) assert.deepEqual(reply.result, expect.result);
  if (expect.error !== undefined) {
    assert.ok(reply.error, `no error in ${shown}`);
    for (const [field, value] of Object.entries(expect.error)) {
      assert.deepEqual(reply.error[field as keyof typeof reply.error], value, `error.${field} in ${shown}`);
    }
  }
  const command = scenario.command as Command;
  const http = !command.op.startsWith('webhooks.') && command.op !== 'info' && command.op !== 'configure';
  const known = http && !command.op.includes('teleport');
  if (known) {
    assert.ok(Array.isArray(reply.sleeps_ms), `an HTTP reply carries sleeps_ms: ${shown}`);
    assert.equal(typeof reply.attempts, 'number', `an HTTP reply carries attempts: ${shown}`);
  }
  if (expect.attempts !== undefined) assert.equal(reply.attempts, expect.attempts, `attempts in ${shown}`);
  if (Array.isArray(expect.sleeps)) assert.deepEqual(reply.sleeps_ms, expect.sleeps, `sleeps_ms in ${shown}`);
  else if (expect.sleeps) assertBackoff(reply.sleeps_ms ?? [], expect.sleeps.backoff);
  expect.requests?.(ctx.requests(), reply);
}

for (const driverPath of drivers) {
  describe(`conformance: ${driverName(driverPath)}`, () => {
    let driver: DriverProcess | null = null;
    let scripted: ScriptedServer;
    let refused: string;
    let unavailable: string | null = null;

    before(async () => {
      const build = buildDriver(driverPath);
      if (!build.ok) {
        // A missing toolchain (build exit 127) is reported, not silently passed: every scenario
        // fails in CI; elsewhere too, unless the build said the toolchain is missing.
        if (!build.toolchainMissing || process.env.CI) {
          throw new Error(`${driverName(driverPath)}: conformance/build failed:\n${build.output}`);
        }
        unavailable = `toolchain missing for ${driverName(driverPath)} (set CI to make this fatal):\n${build.output}`;
        process.stderr.write(`conformance: ${unavailable}\n`);
        return;
      }
      scripted = await startScriptedServer();
      refused = `http://127.0.0.1:${await freePort()}`;
      driver = new DriverProcess(driverPath);
    });

    after(async () => {
      if (driver) {
        const code = await driver.close();
        assert.equal(code, 0, `the driver exits 0 at end of input; stderr:\n${driver.stderr}`);
      }
      await scripted?.close();
    });

    for (const scenario of scenarios) {
      it(scenario.name, async (t) => {
        if (unavailable !== null) {
          t.skip(unavailable);
          return;
        }
        assert.ok(driver, 'the driver started');
        const active = driver;
        const ctx: Context = {
          scripted: scripted.baseUrl,
          refused,
          service,
          send: (command) => active.send(command),
          script: (steps) => scripted.script(steps),
          requests: () => scripted.requests,
        };
        scripted.script([]);
        await runScenario(scenario, ctx);
      });
    }
  });
}

describe('conformance suite', () => {
  it('has at least one driver to run', () => {
    assert.ok(drivers.length > 0, 'no driver to run (PAYGATE_CLIENT_DRIVERS names none that exist?)');
  });
});
