// .ci/run makes a missing client toolchain a failure, never a skip, also when run by hand
// (issue 41 item 15): the clients' run-tests and the conformance suites treat a missing toolchain
// as an error only with CI set, so the script sets it itself before the README's test command.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;

describe('.ci/run', () => {
  it('sets CI before it runs the tests, whatever the caller set', () => {
    const script = readFileSync(join(root, '.ci/run'), 'utf8');
    const setsCi = script.search(/^export CI=1$/m);
    const runsTests = script.search(/^npm test$/m);
    assert.ok(setsCi > 0, 'export CI=1');
    assert.ok(runsTests > setsCi, 'before npm test');
  });

  it('a client suite whose toolchain is missing fails with CI set, as .ci/run sets it', () => {
    // The Python client's own gate, run with a PATH and an interpreter that lack everything.
    const dir = mkdtempSync(join(tmpdir(), 'paygate-ci-run-'));
    try {
      const source = readFileSync(join(root, 'clients/python/run-tests'), 'utf8').replace(
        'python=/usr/bin/python3',
        `python=${join(dir, 'no-python3')}`,
      );
      mkdirSync(join(dir, 'client'));
      const copy = join(dir, 'client', 'run-tests');
      writeFileSync(copy, source);
      chmodSync(copy, 0o755);
      const withCi = spawnSync(copy, [], { env: { PATH: '/usr/bin:/bin', CI: '1' }, encoding: 'utf8' });
      assert.equal(withCi.status, 1, withCi.stderr);
      assert.match(withCi.stderr, /missing Debian packages: python3/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
