// The systemd units of deploy/systemd: systemd-analyze verify finds nothing to say about any of
// them (an API instance of the template included), and each service runs hardened. The same for
// deploy/ha/systemd (etcd, Patroni and HAProxy of the HA PostgreSQL topology), which must also keep
// etcd on the v2 API that the failover test proved safe.
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
import { withoutComment } from '../../scripts/test/doc-commands/blocks.ts';
import { documentedBlocks } from './doc-walk.ts';
import { deployTestsEnabled, repoRoot, run } from './support.ts';

const TEST = 'deploy/test/systemd.test.ts';

/**
 * What docs/operations.md's install blocks do with units (they cannot run here: systemctl needs
 * systemd as init, and they name other hosts): the unit files they copy into /etc/systemd/system
 * and the units they verify, enable, restart or disable.
 */
function documentedUnits() {
  const copied: string[] = [];
  const named: string[] = [];
  for (const block of documentedBlocks(TEST)) {
    for (const raw of block.text.split('\n')) {
      const line = withoutComment(raw).trim();
      for (const cp of line.matchAll(/\bcp ((?:deploy\/\S+ )+)\/etc\/systemd\/system\//g))
        copied.push(...(cp[1] ?? '').trim().split(' '));
      const systemctl = /\bsystemctl (?:enable --now|disable --now|restart|start|stop) ([^&;|]+)/.exec(line);
      if (systemctl?.[1]) named.push(...systemctl[1].trim().split(/\s+/));
      const verify = /\bsystemd-analyze verify \/etc\/systemd\/system\/(\S+)/.exec(line);
      if (verify?.[1]) named.push(verify[1]);
    }
  }
  return { copied, named };
}

const unitsDir = join(repoRoot, 'deploy/systemd');
const units = readdirSync(unitsDir);
const haUnitsDir = join(repoRoot, 'deploy/ha/systemd');
const haUnits = readdirSync(haUnitsDir);

/** Every unit in `names`, copied from `from` into a fresh directory, then checked there. */
function verifyIn(dir: string, names: string[]) {
  return run('systemd-analyze', ['verify', '--man=no', ...names.map((n) => `./${n}`)], {
    cwd: dir,
    allowFailure: true,
  });
}

/** The hardening every HA unit shares (Patroni's postgres user is a real one, not dynamic). */
const HA_HARDENING = [
  'NoNewPrivileges=yes',
  'ProtectSystem=strict',
  'ProtectHome=yes',
  'PrivateTmp=yes',
  'PrivateDevices=yes',
  'CapabilityBoundingSet=',
  'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX',
];

if (deployTestsEnabled(TEST)) {
  describe('systemd units', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-units-'));
    for (const unit of units) copyFileSync(join(unitsDir, unit), join(dir, unit));
    symlinkSync('paygate-api@.service', join(dir, 'paygate-api@8081.service'));
    symlinkSync('paygate-api@.service', join(dir, 'paygate-api@8082.service'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    const verify = (names: string[]) => verifyIn(dir, names);

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

    it('copies, verifies and enables in docs/operations.md only the units shipped here', () => {
      const { copied, named } = documentedUnits();
      assert.ok(
        copied.includes('deploy/systemd/*') && named.includes('paygate.target'),
        JSON.stringify({ copied, named }),
      );
      const shipped = new Set<string>();
      for (const source of copied) {
        const files = source.endsWith('/*')
          ? readdirSync(join(repoRoot, source.slice(0, -2))).map((f) => `${source.slice(0, -1)}${f}`)
          : [source];
        for (const file of files) {
          assert.ok(readFileSync(join(repoRoot, file), 'utf8').includes('[Unit]'), `${file} is a unit`);
          shipped.add(file.slice(file.lastIndexOf('/') + 1));
        }
      }
      // Debian's own etcd and patroni units are the ones the HA block disables.
      const debians = new Set(['etcd', 'patroni']);
      for (const unit of named) {
        const file = unit.includes('.') ? unit : `${unit}.service`;
        const template = file.replace(/@[^.]+\./, '@.');
        assert.ok(
          shipped.has(file) || shipped.has(template) || debians.has(unit),
          `${unit} is not a unit the docs copy`,
        );
      }
      // The instance the docs verify is one this test verifies (first test above).
      assert.ok(named.includes('paygate-api@8081.service'));
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

  describe('systemd units of deploy/ha (etcd, Patroni, HAProxy)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-ha-units-'));
    for (const unit of haUnits) copyFileSync(join(haUnitsDir, unit), join(dir, unit));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const text = (unit: string) => readFileSync(join(haUnitsDir, unit), 'utf8');

    it('pass systemd-analyze verify without a single diagnostic', () => {
      assert.deepEqual([...haUnits].sort(), [
        'paygate-etcd.service',
        'paygate-haproxy-pg.service',
        'paygate-patroni.service',
      ]);
      const result = verifyIn(dir, haUnits);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stderr.trim(), '', 'systemd-analyze said something');
    });

    it('would catch a mistake (the check is not blind)', () => {
      writeFileSync(
        join(dir, 'paygate-etcd-broken.service'),
        text('paygate-etcd.service').replace('ExecStart=/usr/bin/etcd', 'ExecStart=/usr/bin/etcd-missing'),
      );
      assert.match(verifyIn(dir, ['paygate-etcd-broken.service']).stderr, /etcd-missing/);
    });

    it('keep etcd on its v2 API, Patroni on `etcd:` with the tested settings, HAProxy on the primary', () => {
      const etcd = text('paygate-etcd.service');
      // On the command line: an ETCD_ENABLE_V2 in the env file cannot turn it off.
      assert.match(etcd, /^ExecStart=\/usr\/bin\/etcd .*--enable-v2=true/m);
      const patroni = text('paygate-patroni.service');
      assert.match(patroni, /^ExecStart=\/usr\/bin\/patroni \/opt\/paygate\/deploy\/ha\/patroni\.yml$/m);
      assert.match(patroni, /^User=postgres$/m);
      // Patroni stops PostgreSQL itself; systemd killing the postmaster would skip the clean handover.
      assert.match(patroni, /^KillMode=process$/m);
      const patroniYml = readFileSync(join(repoRoot, 'deploy/ha/patroni.yml'), 'utf8');
      assert.match(patroniYml, /^etcd:$/m);
      assert.doesNotMatch(patroniYml, /^etcd3:/m);
      assert.match(patroniYml, /^ {4}synchronous_mode: true$/m);
      assert.match(
        text('paygate-haproxy-pg.service'),
        /^ExecStart=\/usr\/sbin\/haproxy -Ws -f \/opt\/paygate\/deploy\/ha\/haproxy\.cfg$/m,
      );
    });

    it('run every HA service hardened, its settings from a root-only env file', () => {
      for (const unit of haUnits) {
        const lines = text(unit).split('\n');
        for (const line of HA_HARDENING) assert.ok(lines.includes(line), `${unit} lacks ${line}`);
        assert.ok(
          lines.some((l) => /^EnvironmentFile=\/etc\/paygate-ha\/[a-z]+\.env$/.test(l)),
          `${unit} lacks its EnvironmentFile`,
        );
      }
    });
  });
}
