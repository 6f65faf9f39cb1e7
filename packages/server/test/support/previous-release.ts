// The previous release (deploy/previous-release): a commit of this repository's own history, read
// through git, so the tests of upgrades compare this checkout with what production may still run.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const repositoryRoot = new URL('../../../../', import.meta.url).pathname;
export const MIGRATIONS_PATH = 'packages/server/src/storage/migrations';

/** The commit recorded in deploy/previous-release (its only line that is not a comment). */
export function previousRelease(): string {
  const lines = readFileSync(`${repositoryRoot}deploy/previous-release`, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const [commit] = lines;
  if (lines.length !== 1 || !commit || !/^[0-9a-f]{40}$/.test(commit)) {
    throw new Error('deploy/previous-release must hold exactly one full commit id besides its comments');
  }
  return commit;
}

export function git(args: string[]): string {
  return execFileSync('git', args, { cwd: repositoryRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** Whether `commit` is in this clone's history (a shallow clone may not have it). */
export function hasCommit(commit: string): boolean {
  try {
    git(['cat-file', '-e', `${commit}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/** The migration files of `commit`, by file name. */
export function migrationsAt(commit: string): Map<string, string> {
  const names = git(['ls-tree', '--name-only', `${commit}:${MIGRATIONS_PATH}`])
    .split('\n')
    .filter((name) => name.endsWith('.sql'));
  return new Map(names.map((name) => [name, git(['show', `${commit}:${MIGRATIONS_PATH}/${name}`])]));
}
