// scripts/test.mjs ends a run with one summary block; its per-file counts come from
// scripts/test-summary-reporter.mjs. Both are checked here on fixture files.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;
// A test run started from inside a test would otherwise report into this one (NODE_TEST_CONTEXT).
const { NODE_TEST_CONTEXT: _inherited, ...env } = process.env;

describe('the test run summary', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'paygate-summary-test-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('the reporter counts each file passed and failed tests, and a file that does not load as one failure', () => {
    const write = (name: string, text: string): string => {
      const path = join(scratch, name);
      writeFileSync(path, text);
      return path;
    };
    const mixed = write(
      'mixed.test.mjs',
      "import { describe, it, test } from 'node:test';\n" +
        "describe('group', () => { it('passes', () => {}); it('fails', () => { throw new Error('no'); }); });\n" +
        "test('top', () => {});\n",
    );
    const broken = write('broken.test.mjs', "throw new Error('does not load');\n");
    const out = join(scratch, 'files.jsonl');
    const run = spawnSync(
      process.execPath,
      [
        '--test',
        `--test-reporter=${join(root, 'scripts/test-summary-reporter.mjs')}`,
        `--test-reporter-destination=${out}`,
        mixed,
        broken,
      ],
      { encoding: 'utf8', env },
    );
    assert.notEqual(run.status, 0);
    const entries = readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(
        (line) => JSON.parse(line) as { file: string; passed: number; failed: number; durationMs: number },
      );
    const byFile = new Map(entries.map((e) => [e.file, e]));
    assert.equal(byFile.get(mixed)?.passed, 2);
    assert.equal(byFile.get(mixed)?.failed, 1);
    assert.equal(byFile.get(broken)?.failed, 1);
    assert.ok((byFile.get(mixed)?.durationMs ?? 0) > 0);
  });

  it('scripts/test.mjs ends with one summary block naming each suite, its counts and time', () => {
    const run = spawnSync(
      process.execPath,
      [join(root, 'scripts/test.mjs'), 'packages/testing/src/wait-for'],
      {
        cwd: root,
        env,
        encoding: 'utf8',
        timeout: 300_000,
      },
    );
    assert.equal(run.status, 0, run.stderr);
    const tail = run.stdout.trimEnd().split('\n').slice(-3);
    assert.equal(tail[0], '== summary');
    assert.match(tail[1] ?? '', /^passed {2}node:test, 1 files: [1-9]\d* passed, 0 failed {2}\d+\.\d s$/);
    assert.equal(tail[2], 'all passed');
  });
});
