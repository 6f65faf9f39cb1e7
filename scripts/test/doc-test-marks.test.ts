// The doc-command convention (HELPERS.md, issue 34): a fenced sh block of README.md or docs/*.md
// that needs infrastructure a doc runner cannot give is preceded by
// `<!-- doc-test: skip, covered by <repo-relative test path> -->`. That mark must name a test that
// exists and that CI runs (found by scripts/test.mjs, or named in .ci/run), so a skipped block is
// never simply untested.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;
const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const MARK = /^<!-- doc-test: skip, covered by (\S+) -->$/;
/** The folders whose *.test.ts scripts/test.mjs runs (npm test). */
const NPM_TEST_ROOTS = ['packages/', 'examples/', 'clients/', 'scripts/'];

interface Mark {
  where: string;
  covering: string;
  nextLine: string;
}

function marks(): Mark[] {
  const found: Mark[] = [];
  for (const doc of docs) {
    const lines = readFileSync(join(root, doc), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const match = MARK.exec(line.trim());
      if (match?.[1])
        found.push({ where: `${doc}:${i + 1}`, covering: match[1], nextLine: lines[i + 1] ?? '' });
      else if (line.includes('doc-test:'))
        found.push({ where: `${doc}:${i + 1}`, covering: '', nextLine: line });
    });
  }
  return found;
}

describe('doc-test skip marks', () => {
  const ciScript = readFileSync(join(root, '.ci/run'), 'utf8');

  it('each is well formed, precedes a sh block, and names a test that exists and that CI runs', () => {
    for (const mark of marks()) {
      assert.ok(mark.covering, `${mark.where}: expected "<!-- doc-test: skip, covered by <test path> -->"`);
      assert.equal(mark.nextLine, '```sh', `${mark.where}: the mark must directly precede a \`\`\`sh block`);
      assert.match(mark.covering, /\.test\.ts$/, `${mark.where}: ${mark.covering} is not a test file`);
      assert.ok(existsSync(join(root, mark.covering)), `${mark.where}: ${mark.covering} does not exist`);
      const folder = mark.covering.slice(0, mark.covering.lastIndexOf('/') + 1);
      const runByNpmTest = NPM_TEST_ROOTS.some((prefix) => mark.covering.startsWith(prefix));
      const runByCi = ciScript.includes(mark.covering) || ciScript.includes(`${folder}*.test.ts`);
      assert.ok(
        runByNpmTest || runByCi,
        `${mark.where}: ${mark.covering} is run neither by npm test nor by .ci/run`,
      );
    }
  });
});
