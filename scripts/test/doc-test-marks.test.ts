// The doc-command convention (HELPERS.md, issues 34 and 41): a fenced sh block of README.md or
// docs/*.md that the doc runner cannot run (it needs podman, other hosts, PostgreSQL's own tools as
// its user, or systemd as init) is preceded by
// `<!-- doc-test: skip, covered by <repo-relative test path>[ and <another>] -->`. Each named test
// must exist, be run by CI (scripts/test.mjs, or named in .ci/run), and read the block from the
// docs itself (documentedBlocks of deploy/test/doc-walk.ts, with its own path): it runs the
// block's commands as printed (a DocShell), or, for systemctl lines, their process equivalent and
// a check of every unit they name. A skipped block is never simply untested, and a test cannot
// drift from the commands the docs print.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { shBlocks } from './doc-commands/blocks.ts';
import { expectationKey, expectations } from './doc-commands/expectations.ts';

const root = new URL('../..', import.meta.url).pathname;
const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const MARK = /^<!-- doc-test: skip, covered by (\S+(?: and \S+)*) -->$/;
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
        for (const covering of match[1].split(' and '))
          found.push({ where: `${doc}:${i + 1}`, covering, nextLine: lines[i + 1] ?? '' });
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

  it('each names a test that runs the very commands of its blocks, read from the docs', () => {
    for (const mark of marks()) {
      const source = readFileSync(join(root, mark.covering), 'utf8');
      // deploy/test/doc-walk.ts's documentedBlocks (coveredBlocks of the doc runner) gives a test
      // the blocks marked with its own path, which it runs as printed.
      assert.match(
        source,
        new RegExp(`(documentedBlocks|coveredBlocks)\\((\\w+, )?(TEST|'${mark.covering}')\\)`),
        `${mark.where}: ${mark.covering} does not read the blocks marked for it (documentedBlocks)`,
      );
      if (!source.includes(`'${mark.covering}'`))
        assert.fail(`${mark.where}: ${mark.covering} does not name itself when it reads its blocks`);
    }
  });

  it("the doc runner's expectations each name one block it runs (a moved or changed block would be left unchecked)", () => {
    for (const key of Object.keys(expectations)) {
      const { doc, piece } = expectationKey(key);
      assert.ok(piece, `${key}: not "doc » a piece of the block's text"`);
      const found = shBlocks(root, doc).filter((b) => b.text.includes(piece));
      assert.equal(
        found.length,
        1,
        `${key}: ${found.length} \`\`\`sh blocks of ${doc} hold that text, not one`,
      );
      assert.equal(found[0]?.skipped, false, `${key}: the block is skipped, so its expectation never runs`);
    }
  });
});
