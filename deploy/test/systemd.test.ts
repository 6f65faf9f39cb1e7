// The systemd units of deploy/systemd: systemd-analyze verify finds nothing to say about any of
// them (an API instance of the template included), and each service runs hardened.
import assert from 'node:assert/strict';
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { deployTestsEnabled, repoRoot, run } from './support.ts';

const unitsDir = join(repoRoot, 'deploy/systemd');
const units = readdirSync(unitsDir);

if (deployTestsEnabled('deploy/test/systemd.test.ts')) {
  describe('systemd units', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-units-'));
    for (const unit of units) copyFileSync(join(unitsDir, unit), join(dir, unit));
    symlinkSync('paygate-api@.service', join(dir, 'paygate-api@8081.service'));
    symlinkSync('paygate-api@.service', join(dir, 'paygate-api@8082.service'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    const verify = (names: string[]) =>
      run('systemd-analyze', ['verify', '--man=no', ...names.map((n) => `./${n}`)], {
        cwd: dir,
        allowFailure: true,
      });

    it('pass systemd-analyze verify without a single diagnostic', () => {
      const names = [
        ...units.filter((u) => !u.includes('@.')),
        'paygate-api@8081.service',
        'paygate-api@8082.service',
      ];
      assert.deepEqual(names.sort(), [
        'paygate-api@8081.service',
        'paygate-api@8082.service',
        'paygate-migrate.service',
        'paygate-scheduler.service',
        'paygate-worker.service',
        'paygate.target',
      ]);
      const result = verify(names);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stderr.trim(), '', 'systemd-analyze said something');
    });

    it('would catch a mistake (the check is not blind)', () => {
      const broken = readFileSync(join(dir, 'paygate-worker.service'), 'utf8').replace(
        'ProtectSystem=strict',
        'ProtectSystem=strictly',
      );
      writeFileSync(join(dir, 'paygate-broken.service'), broken);
      assert.match(verify(['paygate-broken.service']).stderr, /Failed to parse protect system value/);
    });

    it('run every service hardened, as a dynamic user, draining on SIGTERM', () => {
      for (const unit of units.filter((u) => u.endsWith('.service'))) {
        const text = readFileSync(join(unitsDir, unit), 'utf8');
        for (const line of [
          'DynamicUser=yes',
          'NoNewPrivileges=yes',
          'ProtectSystem=strict',
          'ProtectHome=yes',
          'PrivateTmp=yes',
          'PrivateDevices=yes',
          'CapabilityBoundingSet=',
          'SystemCallFilter=@system-service',
          'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX',
          'EnvironmentFile=/etc/paygate/paygate.env',
        ]) {
          assert.ok(text.split('\n').includes(line), `${unit} lacks ${line}`);
        }
        if (unit !== 'paygate-migrate.service') assert.match(text, /^KillSignal=SIGTERM$/m, unit);
      }
    });
  });
}
