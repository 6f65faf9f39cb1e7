// Every webhook receiver shown in the documentation is a tested example (issue 34): a fenced code
// block in README.md, docs/, examples/, clients/ or packages/ that verifies a signature AND
// answers HTTP must be, byte for byte, a file under some examples/ folder, and that file must be
// one that clients/conformance/receivers.test.ts runs against the real service (a signed
// delivery stored durably and answered 2xx, an unwritable inbox answered 500). A copy that drifts
// from its example, or a receiver written only in a README, fails here.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;
const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);

/** The documentation a newcomer reads. */
const docs = tracked.filter(
  (path) =>
    path.endsWith('.md') &&
    (path === 'README.md' || /^(docs|examples|clients|packages)\//.test(path)) &&
    !path.includes('node_modules/'),
);
const examples = tracked.filter((path) => /(^|\/)examples\//.test(path));

const PROSE_LANGUAGES = new Set([
  '',
  'sh',
  'shell',
  'bash',
  'console',
  'json',
  'text',
  'http',
  'sql',
  'yaml',
]);
// A receiver verifies a delivery's signature...
const VERIFIES = /constructEvent|construct_event/;
// ...and answers it: a server it starts, or a status it sets.
const ANSWERS =
  /\.listen\(|createServer|make_server|start_response|http_response_code|sendResponseHeaders|HTTPServer|send_response|writeHead|\.status\(|res\.statusCode/;

interface Block {
  file: string;
  line: number;
  language: string;
  content: string;
}

function receiverBlocks(): Block[] {
  const found: Block[] = [];
  for (const file of docs) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const match of text.matchAll(/^```([\w-]*)\n([\s\S]*?)^```$/gm)) {
      const [, language = '', content = ''] = match;
      if (PROSE_LANGUAGES.has(language)) continue;
      if (!VERIFIES.test(content) || !ANSWERS.test(content)) continue;
      const line = text.slice(0, match.index).split('\n').length;
      found.push({ file, line, language, content });
    }
  }
  return found;
}

describe('webhook receivers in the documentation', () => {
  const blocks = receiverBlocks();
  const exampleTexts = new Map(examples.map((path) => [path, readFileSync(join(root, path), 'utf8')]));
  const receiversTest = readFileSync(join(root, 'clients/conformance/receivers.test.ts'), 'utf8');

  it('finds the receiver of each reference client (the scan is not empty)', () => {
    const files = new Set(blocks.map((b) => b.file));
    for (const readme of [
      'packages/client-node/README.md',
      'clients/python/README.md',
      'clients/php/README.md',
      'clients/java/README.md',
    ])
      assert.ok(files.has(readme), `no receiver found in ${readme}`);
  });

  it('each is an example file byte for byte, and that example is run against the real service', () => {
    for (const block of blocks) {
      const where = `${block.file}:${block.line} (\`\`\`${block.language})`;
      const same = [...exampleTexts].find(([, text]) => text === block.content)?.[0];
      assert.ok(same, `${where} is a webhook receiver but no file under examples/ is equal to it`);
      assert.ok(
        receiversTest.includes(`'${same}'`),
        `${where} equals ${same}, which clients/conformance/receivers.test.ts does not run`,
      );
    }
  });
});
