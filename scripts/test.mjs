#!/usr/bin/env node
// Runs every *.test.ts of the workspace with Node's own test runner (TypeScript through tsx),
// then the native test suite of every reference client in another language: each
// `clients/<lang>/run-tests` that exists (pytest, PHPUnit, JUnit; see clients/README.md).
// Node 20 has no glob support in `--test`, so the files are found here. Extra arguments
// narrow the run to paths containing them: `node scripts/test.mjs idempotency` (a client's
// native suite runs when its path `clients/<lang>` contains a filter, or with no filter).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync } from 'node:fs';
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
const files = ['packages', 'examples', 'clients']
  .flatMap((d) => {
    try {
      return findTests(join(root, d));
    } catch {
      return [];
    }
  })
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

const clientSuites = (() => {
  try {
    return readdirSync(join(root, 'clients'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `clients/${entry.name}`)
      .filter((dir) => {
        try {
          accessSync(join(root, dir, 'run-tests'), constants.X_OK);
          return true;
        } catch {
          return false;
        }
      })
      .filter((dir) => filters.length === 0 || filters.some((x) => dir.includes(x)))
      .sort();
  } catch {
    return [];
  }
})();

if (files.length === 0 && clientSuites.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

let status = 0;
if (files.length > 0) {
  // The service serves the checkout's build output; build it from the current sources first.
  const built = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'packages/checkout/scripts/build.ts', '--quiet'],
    { cwd: root, stdio: 'inherit' },
  );
  if (built.status !== 0) process.exit(built.status ?? 1);
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
  status = result.status ?? 1;
}
for (const dir of clientSuites) {
  console.log(`\n== ${dir}/run-tests`);
  const result = spawnSync(join(root, dir, 'run-tests'), [], {
    cwd: join(root, dir),
    stdio: 'inherit',
    env: process.env,
  });
  if (result.status !== 0) {
    console.error(`${dir}/run-tests failed (exit ${result.status ?? result.signal})`);
    status = status || 1;
  }
}
process.exit(status);
