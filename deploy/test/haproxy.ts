// HAProxy itself in front of API processes on loopback ports, for the deployment tests: the
// backend's retry policy (`retry-on`, `option redispatch`) and health check are read from
// deploy/haproxy.cfg, the file operators run, so the test exercises what ships; each answer says
// which server carried it (X-Served-By), so a test can see a restarted process serve again.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, until } from './support.ts';

/** The lines of deploy/haproxy.cfg's `backend paygate` that decide retries and health. */
export function shippedBackendPolicy(): string[] {
  const shipped = readFileSync(join(repoRoot, 'deploy/haproxy.cfg'), 'utf8');
  const backend = shipped.slice(shipped.indexOf('backend paygate'));
  const wanted = [/^\s*balance /, /^\s*option httpchk /, /^\s*retry-on /, /^\s*option redispatch/];
  const lines = backend.split('\n').filter((line) => wanted.some((w) => w.test(line)));
  if (lines.length !== wanted.length)
    throw new Error(`deploy/haproxy.cfg lost its backend policy: ${lines.join(' | ')}`);
  return lines.map((line) => line.trim());
}

export async function startHaproxy(servers: Record<string, number>, port: number) {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-haproxy-'));
  const config = [
    'global',
    '  maxconn 400',
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    '  timeout client 60s',
    '  timeout server 60s',
    'frontend api',
    `  bind 127.0.0.1:${port}`,
    '  default_backend paygate',
    'backend paygate',
    ...shippedBackendPolicy().map((line) => `  ${line}`),
    '  http-response set-header X-Served-By %[srv_name]',
    // Faster health checks than production's 2 s, so a test waits less; the retry policy is the same.
    '  default-server check inter 500ms fall 2 rise 1',
    ...Object.entries(servers).map(([name, serverPort]) => `  server ${name} 127.0.0.1:${serverPort}`),
    '',
  ].join('\n');
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  let output = '';
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  await until('HAProxy answering', async () => (await fetch(`${url}/healthz`)).ok);
  return {
    url,
    output: () => output,
    async close() {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
