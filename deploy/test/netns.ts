// Hosts of their own on one machine: each a network namespace with one address on a shared
// bridge, as separate machines on one network would be. The bridge itself lives in a namespace of
// its own, so the root namespace is never changed and never used: its default route leads to an
// egress proxy that accepts any TCP connection, so a probe from there would find every address
// "reachable". Everything here runs and probes from inside the namespaces (`ip netns exec`).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { type PaygateProcess, watchProcess } from '../../packages/server/test/support/processes.ts';
import { run } from './support.ts';

export interface Host {
  /** The role, e.g. `api1`; also the name of its interface on the bridge. */
  name: string;
  netns: string;
  address: string;
}

/** What an agent in a namespace answers: an HTTP response, or why there was none. */
export interface AgentAnswer {
  status?: number;
  body?: string;
  /** For a probe: `open`, or the connection's error code (`ECONNREFUSED`, `ENETUNREACH`, `timeout`). */
  outcome?: string;
  error?: string;
}

const PREFIX = 'pgmh';

/** A long-lived Node.js child inside a namespace that makes HTTP requests and TCP probes for the test. */
const AGENT = `
const net = require('node:net');
const out = (value) => process.stdout.write(JSON.stringify(value) + '\\n');
const probe = (host, port) => new Promise((resolve) => {
  const socket = net.connect({ host, port });
  const done = (outcome) => { socket.destroy(); resolve({ outcome }); };
  socket.setTimeout(3000, () => done('timeout'));
  socket.once('connect', () => done('open'));
  socket.once('error', (error) => done(error.code || String(error)));
});
require('node:readline').createInterface({ input: process.stdin }).on('line', async (line) => {
  const request = JSON.parse(line);
  try {
    if (request.probe) return out({ id: request.id, ...(await probe(request.probe.host, request.probe.port)) });
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    out({ id: request.id, status: response.status, body: await response.text() });
  } catch (error) {
    out({ id: request.id, error: String((error && error.cause && error.cause.code) || error) });
  }
});
`;

export interface Agent {
  fetch(
    url: string,
    init?: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number },
  ): Promise<AgentAnswer>;
  probe(host: string, port: number): Promise<string>;
  stop(): void;
}

function ip(args: string[]) {
  return run('ip', args, { timeoutMs: 30_000 });
}

/** The environment of a child: no proxy settings (a namespace has no proxy to reach) and no PAYGATE_*. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(
    ([key]) => !key.startsWith('PAYGATE_') && !/_proxy$/i.test(key) && key !== 'NODE_EXTRA_CA_CERTS',
  );
  return { ...Object.fromEntries(kept), ...extra };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function ourNamespaces(): string[] {
  const listed = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout;
  return listed
    .split('\n')
    .map((line) => line.split(' ')[0] ?? '')
    .filter((name) => name.startsWith(PREFIX));
}

/** Kills what still runs in a namespace (its processes are this test's), then deletes it. */
function removeNamespace(netns: string) {
  const pids = spawnSync('ip', ['netns', 'pids', netns], { encoding: 'utf8' }).stdout;
  for (const pid of pids.split('\n').filter(Boolean)) spawnSync('kill', ['-KILL', pid]);
  spawnSync('ip', ['netns', 'del', netns]);
}

/** A run killed before its teardown leaves namespaces named after its pid: remove those of dead runs. */
export function removeStaleNamespaces() {
  for (const netns of ourNamespaces()) {
    const pid = Number(netns.slice(PREFIX.length).split('-')[0]);
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) removeNamespace(netns);
  }
}

export class Network {
  readonly hosts = new Map<string, Host>();
  private readonly children: ChildProcess[] = [];
  private readonly lan: string;

  /** The bridge; hosts get addresses with `prefixLength` (e.g. 24) and no default route. */
  constructor(private readonly prefixLength: number) {
    removeStaleNamespaces();
    this.lan = this.netnsOf('lan');
    ip(['netns', 'add', this.lan]);
    ip(['-n', this.lan, 'link', 'add', 'br0', 'type', 'bridge']);
    ip(['-n', this.lan, 'link', 'set', 'br0', 'up']);
  }

  private netnsOf(role: string) {
    return `${PREFIX}${process.pid}-${role}`;
  }

  /** A host: a namespace, its end of a veth pair (`eth0`) with `address`, the other end on the bridge. */
  addHost(name: string, address: string): Host {
    const host = { name, netns: this.netnsOf(name), address };
    ip(['netns', 'add', host.netns]);
    ip(['-n', this.lan, 'link', 'add', name, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', host.netns]);
    ip(['-n', this.lan, 'link', 'set', name, 'master', 'br0', 'up']);
    ip(['-n', host.netns, 'addr', 'add', `${address}/${this.prefixLength}`, 'dev', 'eth0']);
    ip(['-n', host.netns, 'link', 'set', 'eth0', 'up']);
    ip(['-n', host.netns, 'link', 'set', 'lo', 'up']);
    this.hosts.set(name, host);
    return host;
  }

  /** An on-link route from `from` to `to` (another subnet on the same wire), as a router would give. */
  route(from: Host, to: string) {
    ip(['-n', from.netns, 'route', 'add', to, 'dev', 'eth0']);
  }

  host(name: string): Host {
    const host = this.hosts.get(name);
    if (!host) throw new Error(`no host ${name}`);
    return host;
  }

  /** Starts `command` inside the host's namespace. */
  start(host: Host, name: string, command: string[], env: Record<string, string>): PaygateProcess {
    const child = spawn('ip', ['netns', 'exec', host.netns, ...command], {
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children.push(child);
    return watchProcess(name, child);
  }

  /** Runs `command` inside the host's namespace to its end. */
  run(host: Host, command: string[], options: { allowFailure?: boolean; env?: Record<string, string> } = {}) {
    return run('ip', ['netns', 'exec', host.netns, ...command], {
      allowFailure: options.allowFailure,
      env: cleanEnv(options.env ?? {}),
      timeoutMs: 120_000,
    });
  }

  /** An agent inside the host's namespace: what it fetches or probes goes from that host's address. */
  agent(host: Host): Agent {
    const child = spawn('ip', ['netns', 'exec', host.netns, process.execPath, '-e', AGENT], {
      env: cleanEnv({}),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.children.push(child);
    let next = 0;
    let buffered = '';
    const waiting = new Map<number, (answer: AgentAnswer) => void>();
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
        const answer = JSON.parse(buffered.slice(0, end)) as AgentAnswer & { id: number };
        buffered = buffered.slice(end + 1);
        waiting.get(answer.id)?.(answer);
        waiting.delete(answer.id);
      }
    });
    const ask = (request: Record<string, unknown>) =>
      new Promise<AgentAnswer>((resolve) => {
        next += 1;
        waiting.set(next, resolve);
        child.stdin?.write(`${JSON.stringify({ id: next, ...request })}\n`);
      });
    return {
      fetch: (url, init = {}) => ask({ url, ...init, timeoutMs: init.timeoutMs ?? 60_000 }),
      probe: async (host, port) => (await ask({ probe: { host, port } })).outcome ?? 'no answer',
      stop: () => child.kill('SIGKILL'),
    };
  }

  /** Every process in every namespace killed, every namespace (and so every veth and the bridge) gone. */
  destroy() {
    for (const child of this.children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    for (const host of this.hosts.values()) removeNamespace(host.netns);
    removeNamespace(this.lan);
  }

  /** The namespaces of this run still present (none after `destroy`). */
  remaining(): string[] {
    return ourNamespaces().filter((name) => name.startsWith(`${PREFIX}${process.pid}-`));
  }
}
