// Issue 34: every command of README.md and docs/*.md runs as written, on a fresh checkout. The
// working tree's files (what `git clone` would give, plus uncommitted edits) are copied to a temp
// folder with the installed node_modules, and each document's ```sh blocks run there in order in
// bash, as a reader types them: placeholders filled from what earlier commands printed, the
// documented ports moved to free ones through the documented variables (PORT, PAYGATE_SIM_PORT),
// long-running commands in the background. A block preceded by a doc-test skip mark is covered by
// the test the mark names (doc-test-marks.test.ts checks those). The PostgreSQL URLs of the docs
// point at PAYGATE_TEST_DATABASE_URL's server (default the local one), a fresh database per doc.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, connect, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Block, docsWithCommands, shBlocks } from './doc-commands/blocks.ts';
import { expectationOf, overrides } from './doc-commands/expectations.ts';
import { DocSession, type Ports } from './doc-commands/session.ts';

const root = new URL('../..', import.meta.url).pathname;
const serverUrl = process.env.PAYGATE_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Documents read after the quick start: they assume its service is running and its keys exported. */
const STANDALONE = new Set(['README.md', 'docs/quick-start.md', 'docs/operations.md']);
const QUICK_START: Block[] = [
  { doc: 'docs/quick-start.md (as read before)', line: 6, text: 'npm start', skipped: false },
  {
    doc: 'docs/quick-start.md (as read before)',
    line: 39,
    text: 'export PAYGATE_SECRET_KEY=sk_test_...\nexport PAYGATE_ADMIN_TOKEN=adm_...',
    skipped: false,
  },
];

const RECEIVER = `
const [port, file] = process.argv.slice(1);
require('node:http').createServer((req, res) => {
  req.resume();
  req.on('end', () => { require('node:fs').appendFileSync(file, req.method + ' ' + req.url + '\\n'); res.end('ok'); });
}).listen(Number(port));`;

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => resolve(socket.end() !== undefined));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the receiver did not listen on ${port}`);
}

async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function sh(command: string, cwd = root): string {
  const result = spawnSync('bash', ['-c', command], { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(result.status, 0, `${command}\n${result.stderr}`);
  return result.stdout;
}

function psql(sql: string): void {
  sh(`psql ${JSON.stringify(serverUrl)} -v ON_ERROR_STOP=1 -qc ${JSON.stringify(sql)}`);
}

describe('every documented command, as written, on a fresh checkout', () => {
  const base = mkdtempSync(join(tmpdir(), 'paygate-doc-commands-'));
  const clone = join(base, 'paygate');
  const receivedFile = join(base, 'received.txt');
  let receiver: ChildProcess | undefined;
  let ports: Ports;
  const env: NodeJS.ProcessEnv = {};

  before(async () => {
    mkdirSync(clone);
    sh(
      `git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -xf - -C ${JSON.stringify(clone)}`,
    );
    sh(`cp -al node_modules ${JSON.stringify(clone)}/node_modules`);
    ports = {
      api: await freePort(),
      sim: await freePort(),
      receiver: 0,
      metrics: await freePort(),
      fakeStripe: await freePort(),
      fakeAdyen: await freePort(),
    };
    // The reader's own webhook receiver (the quick start forwards to it): answers 200 and notes
    // each request in a file. Another process: this one waits in spawnSync while blocks run.
    ports.receiver = await freePort();
    receiver = spawn(process.execPath, ['-e', RECEIVER, String(ports.receiver), receivedFile], {
      stdio: 'inherit',
    });
    await waitForPort(ports.receiver);
    for (const [name, value] of Object.entries(process.env)) {
      if (!name.startsWith('PAYGATE_') && !name.startsWith('NODE_') && !name.startsWith('npm_'))
        env[name] = value;
    }
    Object.assign(env, {
      PORT: String(ports.api),
      PAYGATE_SIM_PORT: String(ports.sim),
      PAYGATE_BASE_URL: `http://localhost:${ports.api}`,
      FAKE_STRIPE_PORT: String(ports.fakeStripe),
      FAKE_ADYEN_PORT: String(ports.fakeAdyen),
    });
  });

  after(async () => {
    receiver?.kill();
    rmSync(base, { recursive: true, force: true });
  });

  for (const doc of docsWithCommands(root)) {
    it(doc, { timeout: 600_000 }, () => {
      const work = mkdtempSync(join(base, 'work-'));
      rmSync(join(clone, '.paygate'), { recursive: true, force: true });
      const database = `doc_commands_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
      psql(`CREATE DATABASE ${database}`);
      const url = new URL(serverUrl);
      url.pathname = `/${database}`;
      const session = new DocSession(clone, work, ports, url.toString(), overrides[doc]);
      try {
        if (!STANDALONE.has(doc)) for (const block of QUICK_START) session.run(block, env, false);
        for (const block of shBlocks(root, doc)) {
          if (block.skipped) continue;
          const run = session.run(block, env);
          const received = () => (existsSync(receivedFile) ? readFileSync(receivedFile, 'utf8') : '');
          expectationOf(block)?.(run.stdout, session, received);
        }
      } catch (error) {
        console.error(`${doc}: ${String(error)}`); // at once: a reporter shows nested failures only at the end
        throw error;
      } finally {
        session.stop('all');
        psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      }
    });
  }
});
