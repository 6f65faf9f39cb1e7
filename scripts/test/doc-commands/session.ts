// One reader's session with one document, in a fresh copy of the repository: every block runs in
// bash (`set -euo pipefail`) with what earlier blocks exported, long-running commands stay up in
// the background until the document is done, and placeholders are filled from what was printed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Block, logicalLines, longRunning, quoteForBash, withoutComment } from './blocks.ts';

export interface Ports {
  api: number;
  sim: number;
  receiver: number;
  metrics: number;
  fakeStripe: number;
  fakeAdyen: number;
}

const OPENS_DATABASE = /\bpaygate -- (dashboard|merchant|operator) /;

export interface BlockRun {
  block: Block;
  stdout: string;
}

// curl fails on an HTTP error answer (a documented request must succeed); a browser's \`open\` is
// a fetch of the page that must answer 2xx.
const BASH_HELPERS = `
curl() { command curl --fail-with-body "$@"; }
open() { command curl -fsS -o /dev/null "$1"; }
xdg-open() { open "$1"; }
__bg() {
  local id=$1 cmd=$2 ready=$3 kind=$4 log="$DOC_WORK/bg-$1.log"
  setsid bash -c "$cmd" >"$log" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >>"$DOC_WORK/$kind.pids"
  for _ in $(seq 1 360); do
    grep -Eq -- "$ready" "$log" && return 0
    kill -0 "$pid" 2>/dev/null || { echo "exited before it was ready: $cmd" >&2; cat "$log" >&2; return 1; }
    sleep 0.5
  done
  echo "not ready after 180 s: $cmd" >&2; cat "$log" >&2; return 1
}
`;

export class DocSession {
  private counter = 0;
  private readonly values = new Map<string, string>();
  readonly runs: BlockRun[] = [];

  constructor(
    readonly clone: string,
    readonly work: string,
    readonly ports: Ports,
    readonly databaseUrl: string,
    private readonly overrides: Record<string, string> = {},
  ) {
    writeFileSync(join(work, 'env.sh'), '');
  }

  /** Everything printed so far, by blocks and by the commands running in the background. */
  printed(): string {
    const logs = readdirSync(this.work)
      .filter((name) => name.startsWith('bg-'))
      .sort()
      .map((name) => readFileSync(join(this.work, name), 'utf8'));
    return [...this.runs.map((run) => run.stdout), ...logs].join('\n');
  }

  backgroundLog(fragment: string): string {
    return readdirSync(this.work)
      .filter((name) => name.startsWith('bg-'))
      .map((name) => readFileSync(join(this.work, name), 'utf8'))
      .filter((log) => log.includes(fragment))
      .join('\n');
  }

  /** The values a reader copies from earlier output (the first start's keys, the last ids). */
  private capture(): void {
    const text = this.printed();
    const first = (pattern: RegExp) => pattern.exec(text)?.[1];
    const last = (pattern: RegExp) => [...text.matchAll(pattern)].at(-1)?.[1];
    const found: Record<string, string | undefined> = {
      'sk_test_...': first(/secret test key:\s+(sk_test_\w+)/),
      'adm_...': first(/Operator token[^\n]*?(adm_[\w-]+)/),
      'acct_...': first(/Demo merchant (acct_\w+)/),
      'pi_...': last(/"id":\s*"(pi_\w+)"/g),
      'we_...': last(/"id":\s*"(we_\w+)"/g),
      'cus_...': last(/"id":\s*"(cus_\w+)"/g),
      'spm_...': last(/"id":\s*"(spm_\w+)"/g),
      'gwa_...': first(/"id":\s*"(gwa_\w+)"/),
      'PAYGATE_MASTER_KEY=…': last(/^([0-9a-f]{64})$/gm),
      'PAYGATE_ADMIN_TOKEN=…': last(/^([0-9a-f]{48})$/gm),
    };
    for (const [key, value] of Object.entries(found)) if (value) this.values.set(key, value);
  }

  /** The block as the reader types it: placeholders filled in, ports moved to free ones. */
  prepare(text: string, ownDoc: boolean): string {
    this.capture();
    const p = this.ports;
    let out = text;
    for (const [placeholder, value] of Object.entries(ownDoc ? this.overrides : {}))
      out = out.replaceAll(placeholder, value);
    out = out
      .replaceAll(/\b(8080|9080)\b/g, String(p.api))
      .replaceAll(/\b(8081|9081)\b/g, String(p.sim))
      .replaceAll(/\b8000\b/g, String(p.receiver))
      .replaceAll(/\b9464\b/g, String(p.metrics))
      .replaceAll(/\b12111\b/g, String(p.fakeStripe))
      .replaceAll(/\b12112\b/g, String(p.fakeAdyen))
      .replaceAll(/sim\.internal/g, '127.0.0.1')
      .replaceAll(/postgres:\/\/[^\s'"]+/g, this.databaseUrl)
      .replaceAll('acct_…', 'acct_...');
    for (const [placeholder, value] of this.values) {
      const eq = placeholder.indexOf('=…');
      if (eq > 0) out = out.replaceAll(placeholder, `${placeholder.slice(0, eq)}=${value}`);
      else out = out.replaceAll(placeholder, value);
    }
    return out;
  }

  /** One logical line as bash: `npm test` is what CI itself runs; long-running ones go to the background. */
  private command(line: string): string {
    const code = withoutComment(line).trim();
    if (code === 'npm test') return `grep -qx 'npm test' .ci/run  # CI runs it: .ci/run`;
    const long = longRunning(line);
    if (!long) return line;
    this.counter++;
    const ready = long.ready.source.replaceAll('\\d', '[0-9]');
    const kind = long.service ? 'service' : 'other';
    return `__bg ${this.counter} ${quoteForBash(code)} ${quoteForBash(ready)} ${kind}`;
  }

  private script(line: string): string {
    const envFile = quoteForBash(join(this.work, 'env.sh'));
    return [
      'set -euo pipefail',
      `source ${envFile}`,
      `cd ${quoteForBash(this.clone)}`,
      BASH_HELPERS,
      line,
      `export -p >${envFile}`,
      '',
    ].join('\n');
  }

  /**
   * Runs the block line by line, as a reader does: each line's placeholders are filled from what
   * the lines before it printed (the block's own `openssl rand` output included).
   */
  run(block: Block, env: NodeJS.ProcessEnv, ownDoc = true): BlockRun {
    const lines = logicalLines(block.text);
    // A new service replaces the running one; a CLI command that opens the embedded database runs
    // while the service is stopped, as docs/dashboard.md says (the database belongs to one process).
    if (lines.some((line) => longRunning(line)?.service || OPENS_DATABASE.test(withoutComment(line))))
      this.stop('service');
    const run = { block, stdout: '' };
    this.runs.push(run);
    for (const line of logicalLines(block.text)) {
      if (withoutComment(line).trim() === '') continue;
      const script = this.script(this.command(this.prepare(line, ownDoc)));
      const result = spawnSync('bash', ['-c', script], {
        env: { ...env, DOC_WORK: this.work },
        encoding: 'utf8',
        timeout: 240_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      run.stdout += result.stdout;
      if (result.status !== 0) {
        throw new Error(
          `${block.doc}:${block.line}: a command failed (exit ${result.status}${result.signal ? `, ${result.signal}` : ''})\n` +
            `--- as run:\n${script}\n--- stdout:\n${result.stdout}\n--- stderr:\n${result.stderr}`,
        );
      }
    }
    return run;
  }

  /** Ends the background commands of one kind (or all), as a reader presses Ctrl-C. */
  stop(kind: 'service' | 'other' | 'all'): void {
    const kinds = kind === 'all' ? ['service', 'other'] : [kind];
    for (const k of kinds) {
      const file = join(this.work, `${k}.pids`);
      if (!existsSync(file)) continue;
      const pids = readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
      for (const pid of pids) signal(-pid, 'SIGTERM');
      const until = Date.now() + 10_000;
      while (Date.now() < until && pids.some((pid) => alive(-pid))) spawnSync('sleep', ['0.2']);
      for (const pid of pids) signal(-pid, 'SIGKILL');
      rmSync(file);
    }
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
