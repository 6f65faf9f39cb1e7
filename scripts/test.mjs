#!/usr/bin/env node
// Runs every *.test.ts of the workspace with Node's own test runner (TypeScript through tsx).
// Node 20 has no glob support in `--test`, so the files are found here. Extra arguments
// narrow the run to paths containing them: `node scripts/test.mjs idempotency`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const skipDirs = new Set(['node_modules', 'dist', '.git', '.paygate', 'results', 'tmp']);

function findTests(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!skipDirs.has(entry.name)) found.push(...findTests(join(dir, entry.name)));
    } else if (entry.name.endsWith('.test.ts')) {
      found.push(relative(root, join(dir, entry.name)));
    }
  }
  return found;
}

const filters = process.argv.slice(2);
const files = ['packages', 'examples']
  .flatMap((d) => {
    try {
      return findTests(join(root, d));
    } catch {
      return [];
    }
  })
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

const result = spawnSync(
  process.execPath,
  [
    '--conditions=development',
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    `--test-concurrency=${process.env.PAYGATE_TEST_CONCURRENCY ?? 2}`,
    ...files,
  ],
  { cwd: root, stdio: 'inherit', env: process.env },
);
process.exit(result.status ?? 1);
