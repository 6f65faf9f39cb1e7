// The deployment of the chaos test: one shared simulator, API processes and delivery workers on
// one PostgreSQL database, behind a small load balancer, with a supervisor that restarts what
// dies (as a process manager would) and the two kinds of harm the test does: SIGKILL of a process
// and pg_terminate_backend of database connections.
import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import pg from 'pg';
import { freePort, type PaygateProcess, startPaygate } from './processes.ts';

export const CHAOS_ADMIN_TOKEN = 'admin-token-for-the-chaos-test';
/** How long the load balancer holds a request while no API process is up. */
const LB_WAIT_MS = 15_000;

interface Member {
  name: string;
  args: string[];
  env: Record<string, string>;
  port: number | null;
  process: PaygateProcess;
  /** Set while the test itself stopped or killed it (the supervisor then leaves it to the test). */
  held: boolean;
}

export interface Cluster {
  lbUrl: string;
  simUrl: string;
  env: Record<string, string>;
  /** Crashes nobody asked for (a process that exited by itself), with their last output. */
  crashes: string[];
  kills: number;
  terminatedBackends: number;
  killRandom(random: () => number): Promise<void>;
  terminateBackends(random: () => number): Promise<void>;
  /** Resolves once every member is up and answering (or started, for workers). */
  allUp(): Promise<void>;
  stop(): Promise<void>;
}

/** Forwards each request to a live API process, trying the others when one refuses the connection. */
async function startLoadBalancer(port: number, members: () => Member[]): Promise<Server> {
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const startedAt = Date.now();
      const attempt = (tries: number) => {
        const apis = members().filter((m) => m.port !== null);
        next = (next + 1) % Math.max(1, apis.length);
        const target = apis[next];
        // Like a load balancer with health checks: while every process is down (being restarted),
        // the request waits for one, up to a bound.
        if (!target || Date.now() - startedAt > LB_WAIT_MS) {
          outgoing.writeHead(502).end();
          return;
        }
        const forwarded = httpRequest(
          {
            host: '127.0.0.1',
            port: target.port,
            method: incoming.method,
            path: incoming.url,
            headers: incoming.headers,
          },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
          },
        );
        forwarded.on('error', (error: NodeJS.ErrnoException) => {
          // Refused before anything was sent: another process may take it. A connection cut later
          // is the client's to retry, as behind a real load balancer.
          if (error.code === 'ECONNREFUSED' && !outgoing.headersSent) {
            const pause = (tries + 1) % apis.length === 0 ? 200 : 0;
            setTimeout(() => attempt(tries + 1), pause);
            return;
          }
          if (!outgoing.headersSent) outgoing.writeHead(502);
          outgoing.end();
        });
        forwarded.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

export async function startCluster(options: {
  databaseUrl: string;
  apiProcesses: number;
  workerProcesses: number;
}): Promise<Cluster> {
  const lbPort = await freePort();
  const simPort = await freePort();
  const simUrl = `http://127.0.0.1:${simPort}`;
  const lbUrl = `http://127.0.0.1:${lbPort}`;
  const env: Record<string, string> = {
    PAYGATE_DATABASE_URL: options.databaseUrl,
    PAYGATE_MASTER_KEY: randomBytes(32).toString('hex'),
    PAYGATE_ADMIN_TOKEN: CHAOS_ADMIN_TOKEN,
    PAYGATE_TEST_CLOCK: '1',
    PAYGATE_SIM_PORT: String(simPort),
    PAYGATE_SIM_URL: simUrl,
    PAYGATE_PUBLIC_URL: lbUrl,
    PAYGATE_RATE_LIMIT_PER_SECOND: '100000',
    PAYGATE_WEBHOOK_POLL_MS: '500',
    PAYGATE_WEBHOOK_TIMEOUT_MS: '5000',
    PAYGATE_WEBHOOK_LEASE_SECONDS: '20',
  };
  const crashes: string[] = [];
  const members: Member[] = [];
  let stopping = false;

  const supervise = (member: Member) => {
    member.process.exited().then(() => {
      if (stopping || member.held) return;
      crashes.push(`${member.name} exited by itself:\n${member.process.output().slice(-2000)}`);
      member.process = startPaygate(member.name, member.args, member.env);
      supervise(member);
    });
  };
  const add = (name: string, args: string[], port: number | null) => {
    // A worker says it started only at info level.
    const memberEnv = port === null ? { ...env, PAYGATE_LOG_LEVEL: 'info' } : { ...env, PORT: String(port) };
    const member: Member = {
      name,
      args,
      env: memberEnv,
      port,
      process: startPaygate(name, args, memberEnv),
      held: false,
    };
    members.push(member);
    supervise(member);
  };

  const sim = startPaygate('sim', ['sim'], env);
  await sim.printed('Simulated gateway listening');
  const lb = await startLoadBalancer(lbPort, () => members);
  for (let i = 0; i < options.apiProcesses; i++) add(`api-${i}`, ['start'], await freePort());
  for (let i = 0; i < options.workerProcesses; i++) add(`worker-${i}`, ['worker'], null);

  const up = (member: Member) =>
    member.process.printed(member.port === null ? 'webhook delivery worker started' : 'Paygate is listening');
  const admin = new pg.Client({ connectionString: options.databaseUrl });
  await admin.connect();
  const database = new URL(options.databaseUrl).pathname.slice(1);
  let kills = 0;
  let terminatedBackends = 0;

  const cluster: Cluster = {
    lbUrl,
    simUrl,
    env,
    crashes,
    get kills() {
      return kills;
    },
    get terminatedBackends() {
      return terminatedBackends;
    },
    async killRandom(random) {
      const member = members[Math.floor(random() * members.length)];
      if (!member) return;
      member.held = true;
      member.process.child.kill('SIGKILL');
      await member.process.exited();
      kills += 1;
      member.process = startPaygate(member.name, member.args, member.env);
      member.held = false;
      supervise(member);
    },
    async terminateBackends(random) {
      const { rows } = await admin.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database],
      );
      for (const row of rows) {
        if (random() < 0.25) {
          await admin.query('SELECT pg_terminate_backend($1)', [row.pid]);
          terminatedBackends += 1;
        }
      }
    },
    async allUp() {
      await Promise.all(members.map(up));
    },
    async stop() {
      stopping = true;
      await Promise.all(members.map((m) => m.process.stop()));
      await sim.stop();
      await admin.end();
      await new Promise<void>((resolve) => lb.close(() => resolve()));
    },
  };
  await cluster.allUp();
  return cluster;
}
