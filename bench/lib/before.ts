// The code before an issue, made by the bench itself so that one command measures both sides
// (issue 33: every goal is also held against the code before it, in the same run).
//
// `git archive <commit>` unpacked into bench/tmp/before-<commit>/, with a node_modules of links:
// every installed package links to this checkout's node_modules (the lock's versions), and the
// workspace packages (@paygate/*) link to the unpacked commit's own packages, so the service of the
// commit runs its own code on the same dependencies. Made once and kept (bench/tmp is git-ignored);
// a marker file says it is complete.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './processes.ts';

/** The code before issue 33 (the main branch when the issue was opened). */
export const BEFORE_ISSUE_33 = 'ee226fa';

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${result.stderr?.slice(-1000)}`);
}

/** Links `from/node_modules` into `root/node_modules`, the workspace packages to root's own. */
function linkModules(from: string, root: string): void {
  const target = join(root, 'node_modules');
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(from)) {
    const source = join(from, entry);
    const link = join(target, entry);
    if (entry === '@paygate') {
      mkdirSync(link, { recursive: true });
      for (const pkg of readdirSync(source)) {
        const workspace = join(source, pkg);
        // A workspace link is relative (../../packages/server): the same text inside root points at root's package.
        if (lstatSync(workspace).isSymbolicLink()) symlinkSync(readlinkSync(workspace), join(link, pkg));
      }
      continue;
    }
    symlinkSync(source, link);
  }
}

/**
 * The checkout of `commit` under bench/tmp, ready to start as `--service-root` (its service is
 * built by the bench when started, as `npm start` builds it; the checkout's browser files here).
 */
export function checkoutBefore(commit: string, log: (line: string) => void): string {
  const root = join(repoRoot, 'bench/tmp', `before-${commit}`);
  const done = join(root, '.bench-ready');
  if (existsSync(done)) return root;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  log(`before: git archive ${commit} into ${root.slice(repoRoot.length)}`);
  const archive = spawnSync('git', ['archive', '--format=tar', commit], {
    cwd: repoRoot,
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr?.toString()}`);
  const untar = spawnSync('tar', ['-x', '-C', root], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar -x failed: ${untar.stderr?.toString()}`);
  linkModules(join(repoRoot, 'node_modules'), root);
  const checkoutBuild = join(root, 'packages/checkout/scripts/build.ts');
  if (existsSync(checkoutBuild)) run(process.execPath, ['--import', 'tsx', checkoutBuild, '--quiet'], root);
  writeFileSync(done, `${commit}\n`);
  return root;
}
