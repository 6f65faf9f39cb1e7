#!/usr/bin/env node
// Runs every *.test.ts of the workspace with Node's own test runner (TypeScript through tsx),
// then the native test suite of every reference client in another language: each
// `clients/<lang>/run-tests` that exists (pytest, PHPUnit, JUnit; see clients/README.md).
// Node 20 has no glob support in `--test`, so the files are found here. Extra arguments
// narrow the run to paths containing them: `node scripts/test.mjs idempotency` (a client's
// native suite runs when its path `clients/<lang>` contains a filter, or with no filter).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
const files = ['packages', 'examples', 'clients', 'scripts']
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

/** One line per suite, printed together at the very end (the run prints thousands of lines). */
const summary = [];
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

function runNodeTests() {
  // The service serves the checkout's build output; build it from the current sources first.
  const built = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'packages/checkout/scripts/build.ts', '--quiet'],
    { cwd: root, stdio: 'inherit' },
  );
  if (built.status !== 0) process.exit(built.status ?? 1);
  const scratch = mkdtempSync(join(tmpdir(), 'paygate-test-summary-'));
  const perFile = join(scratch, 'files.jsonl');
  const startedAt = Date.now();
  const result = spawnSync(
    process.execPath,
    [
      '--conditions=development',
      '--import',
      'tsx',
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${join(root, 'scripts/test-summary-reporter.mjs')}`,
      `--test-reporter-destination=${perFile}`,
      `--test-concurrency=${process.env.PAYGATE_TEST_CONCURRENCY ?? 2}`,
      ...files,
    ],
    { cwd: root, stdio: 'inherit', env: process.env },
  );
  const elapsedMs = Date.now() - startedAt;
  let entries = [];
  try {
    entries = readFileSync(perFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    // No per-file results (the runner itself failed): the exit status below still says so.
  }
  rmSync(scratch, { recursive: true, force: true });
  const passed = entries.reduce((n, e) => n + e.passed, 0);
  const failed = entries.reduce((n, e) => n + e.failed, 0);
  const ok = result.status === 0;
  summary.push(
    `${ok ? 'passed' : 'FAILED'}  node:test, ${files.length} files: ${passed} passed, ${failed} failed  ${seconds(elapsedMs)}`,
  );
  for (const entry of entries.filter((e) => e.failed > 0)) {
    summary.push(`          failed in ${relative(root, entry.file)}: ${entry.failed}`);
  }
  return ok;
}

function runClientSuite(dir) {
  console.log(`\n== ${dir}/run-tests`);
  const startedAt = Date.now();
  const result = spawnSync(join(root, dir, 'run-tests'), [], {
    cwd: join(root, dir),
    stdio: 'inherit',
    env: process.env,
  });
  const ok = result.status === 0;
  const how = ok ? '' : ` (exit ${result.status ?? result.signal})`;
  summary.push(`${ok ? 'passed' : 'FAILED'}  ${dir}/run-tests${how}  ${seconds(Date.now() - startedAt)}`);
  return ok;
}

let status = 0;
if (files.length > 0 && !runNodeTests()) status = 1;
for (const dir of clientSuites) {
  if (!runClientSuite(dir)) status = 1;
}
console.log(`\n== summary\n${summary.join('\n')}\n${status === 0 ? 'all passed' : 'FAILED'}`);
process.exit(status);
