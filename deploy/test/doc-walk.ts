// The documented commands as an operator types them into one shell: each block of the docs that a
// deployment test covers (scripts/test/doc-commands/blocks.ts, coveredBlocks) runs as printed in
// bash (`set -euo pipefail`), with what earlier blocks exported or defined (variables and shell
// functions) carried over, in a directory of the test's choosing (a clean copy of the repository).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Block, coveredBlocks } from '../../scripts/test/doc-commands/blocks.ts';
import { repoRoot } from './support.ts';

export type { Block };

/** The blocks `test` (a repo-relative path, e.g. 'deploy/test/compose.test.ts') runs. */
export function documentedBlocks(test: string): Block[] {
  return coveredBlocks(repoRoot, test);
}

export class DocShell {
  private readonly state: string;

  constructor(
    readonly cwd: string,
    private readonly env: NodeJS.ProcessEnv,
    /** The user the docs say runs the commands (`postgres` for the database host's); the test's own by default. */
    private readonly user?: string,
  ) {
    // The shell's variables and functions between blocks, kept outside the directory it works in
    // (a checkout must not gain a file).
    this.state = join(mkdtempSync(join(tmpdir(), 'paygate-doc-shell-')), 'state.sh');
    writeFileSync(this.state, '');
    if (user) spawnSync('chown', ['-R', user, dirname(this.state)]);
  }

  /** Runs one block as printed; resolves with what it printed, rejects with both streams when it fails. */
  run(block: Block, timeoutMs = 900_000): Promise<string> {
    const script = [
      'set -euo pipefail',
      `source '${this.state}'`,
      block.text,
      `{ export -p; declare -f; } >'${this.state}'`,
      '',
    ].join('\n');
    return new Promise((resolve, reject) => {
      const [command, args] = this.user
        ? ['runuser', ['-u', this.user, '--', 'bash', '-c', script]]
        : ['bash', ['-c', script]];
      const child = spawn(command as string, args as string[], { cwd: this.cwd, env: this.env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) resolve(stdout);
        else
          reject(
            new Error(
              `${block.doc}:${block.line} failed (exit ${code}${signal ? `, ${signal}` : ''}):\n${block.text}\n` +
                `--- stdout:\n${stdout}\n--- stderr:\n${stderr}`,
            ),
          );
      });
    });
  }
}
