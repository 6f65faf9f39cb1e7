// Builds dist/ (what npm publishes and the conformance driver runs) without a moment where dist/ is
// missing or half-written: several test files build this package at once (conformance/build, the
// `npm pack` of the install tests) while a driver or an example may be starting from dist/. tsc
// writes into a private folder, which is then renamed into place.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const pkg = new URL('..', import.meta.url).pathname;
const dist = join(pkg, 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const staged = mkdtempSync(join(pkg, '.dist-'));
try {
  execFileSync(process.execPath, [tsc, '-p', join(pkg, 'tsconfig.build.json'), '--outDir', staged], {
    stdio: 'inherit',
  });
  // Another build may place its dist/ between the two renames: then move that one away and retry.
  for (let attempt = 1; ; attempt += 1) {
    const old = `${staged}-old`;
    try {
      renameSync(dist, old);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    try {
      renameSync(staged, dist);
      rmSync(old, { recursive: true, force: true });
      break;
    } catch (error) {
      rmSync(old, { recursive: true, force: true });
      if (attempt >= 5 || !['ENOTEMPTY', 'EEXIST'].includes(error.code)) throw error;
    }
  }
} finally {
  rmSync(staged, { recursive: true, force: true });
}
