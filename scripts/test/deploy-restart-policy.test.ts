// A bad setting must not make a crash loop (issue 42 item 3: 112 restarts in 12 s). A process that
// cannot start for its configuration exits 2 (main.ts) and says why once; the restart policies of
// deploy/ do not retry that code (systemd) or give up after a few tries (compose), and a clean
// stop is never restarted. The deployment's secrets file is never committed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;

describe("deploy/'s restart policies and secrets", () => {
  it('every restarted systemd unit stops retrying a configuration error (exit 2)', () => {
    const units = readdirSync(join(root, 'deploy/systemd')).filter((name) => name.endsWith('.service'));
    const restarted = units.filter((name) =>
      /^Restart=on-failure$/m.test(readFileSync(join(root, 'deploy/systemd', name), 'utf8')),
    );
    assert.deepEqual(restarted.sort(), [
      'paygate-api@.service',
      'paygate-scheduler.service',
      'paygate-worker.service',
    ]);
    for (const name of restarted) {
      const unit = readFileSync(join(root, 'deploy/systemd', name), 'utf8');
      assert.match(unit, /^RestartPreventExitStatus=2$/m, name);
    }
  });

  it("compose restarts Paygate's processes on failure only, a bounded number of times", () => {
    const compose = readFileSync(join(root, 'deploy/compose.yaml'), 'utf8');
    const anchor = compose.slice(compose.indexOf('x-paygate: &paygate'), compose.indexOf('\nservices:'));
    assert.match(anchor, /^ {2}restart: on-failure:\d+$/m, 'the shared settings of every Paygate service');
    const services = compose.slice(compose.indexOf('\nservices:'));
    assert.doesNotMatch(
      services
        .split(/\n {2}(?=[a-z0-9]+:\n)/)
        .filter((s) => s.includes('<<: *paygate'))
        .join('\n'),
      /restart: (always|unless-stopped)/,
      'no Paygate service overrides it with an unbounded policy',
    );
  });

  it('deploy/paygate.env is ignored by git', () => {
    const ignored = spawnSync('git', ['check-ignore', '-q', 'deploy/paygate.env'], { cwd: root });
    assert.equal(ignored.status, 0);
  });
});
