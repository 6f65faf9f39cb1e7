// The suite's own machinery: which drivers run, how a build's failure is reported, and the
// protocol checks on a driver (one JSON line per command, ids echoed, exit 0 at end of input).
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildDriver, DriverProcess, driversToRun, repositoryRoot } from './driver-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'paygate-driver-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function fakeClient(name: string, build: string, driver: string): string {
  const folder = join(dir, name, 'conformance');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'build'), `#!/bin/sh\n${build}\n`);
  writeFileSync(join(folder, 'driver'), `#!/bin/sh\n${driver}\n`);
  chmodSync(join(folder, 'build'), 0o755);
  chmodSync(join(folder, 'driver'), 0o755);
  return join(folder, 'driver');
}

describe('conformance suite machinery', () => {
  it('finds the TypeScript driver and every clients/*/conformance/driver by default', () => {
    const found = driversToRun({});
    assert.ok(found.includes(join(repositoryRoot, 'packages/client-node/conformance/driver')));
    assert.ok(
      found.every((path) => path.endsWith('/conformance/driver')),
      `every driver found is a conformance/driver: ${found}`,
    );
  });

  it('runs only the drivers named in PAYGATE_CLIENT_DRIVERS', () => {
    assert.deepEqual(
      driversToRun({ PAYGATE_CLIENT_DRIVERS: ' clients/java/conformance/driver ,/abs/driver' }),
      [join(repositoryRoot, 'clients/java/conformance/driver'), '/abs/driver'],
    );
  });

  it('tells a missing toolchain (build exit 127) from a broken build', () => {
    const missing = buildDriver(fakeClient('missing', 'echo "no javac" >&2; exit 127', 'cat'));
    assert.deepEqual([missing.ok, missing.toolchainMissing], [false, true]);
    assert.match(missing.output, /no javac/);
    const broken = buildDriver(fakeClient('broken', 'exit 1', 'cat'));
    assert.deepEqual([broken.ok, broken.toolchainMissing], [false, false]);
    assert.equal(buildDriver(join(dir, 'absent/conformance/driver')).ok, false);
  });

  it('refuses a driver that writes anything but the reply', async () => {
    const chatty = new DriverProcess(
      fakeClient(
        'chatty',
        'exit 0',
        'echo banner; while read line; do echo \'{"id":"c1","ok":true,"result":{}}\'; done',
      ),
    );
    await assert.rejects(chatty.send({ op: 'info' }), /not JSON/);
    await chatty.close();
  });

  it('refuses a reply whose id does not echo the command', async () => {
    const wrong = new DriverProcess(
      fakeClient(
        'wrong-id',
        'exit 0',
        'while read line; do echo \'{"id":"other","ok":true,"result":{}}\'; done',
      ),
    );
    await assert.rejects(wrong.send({ op: 'info' }), /does not echo/);
    assert.equal(await wrong.close(), 0);
  });
});
