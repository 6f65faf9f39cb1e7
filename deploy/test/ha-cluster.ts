// The topology of deploy/ha on loopback ports, as docs/operations.md runs it: three etcd members (v2 API),
// two Patroni members of Debian's postgresql-15, HAProxy on the primary. Each member is a "node":
// its Patroni, its postmaster and the postmaster's children, so that the test can kill or freeze
// a node whole, as a crashed or paused machine would be.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, repoRoot, until } from './support.ts';

const PATRONI_YML = join(repoRoot, 'deploy/ha/patroni.yml');
const HAPROXY_CFG = join(repoRoot, 'deploy/ha/haproxy.cfg');

export interface HaMember {
  name: string;
  pgPort: number;
  apiPort: number;
  dataDir: string;
  patroni: ChildProcess | null;
  output: string;
}

export interface HaCluster {
  /** What Paygate connects to: HAProxy, as the superuser (the test creates its own role). */
  haproxyPort: number;
  superuserPassword: string;
  members: HaMember[];
  leader(): Promise<HaMember>;
  /** Resolves once one member is leader and the other its synchronous standby. */
  healthy(timeoutMs?: number): Promise<void>;
  /** The pids of a node: Patroni, the postmaster and its children. */
  nodePids(member: HaMember): number[];
  postmasterPid(member: HaMember): number | null;
  startMember(member: HaMember): void;
  stop(): Promise<void>;
  logs(): string;
}

const uid = () => Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
const gid = () => Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());

function collect(child: ChildProcess, into: (text: string) => void) {
  child.stdout?.on('data', (chunk: Buffer) => into(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => into(chunk.toString('utf8')));
}

function childrenOf(pid: number): number[] {
  const found = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout;
  return found.split('\n').filter(Boolean).map(Number);
}

async function clusterState(apiPort: number) {
  const response = await fetch(`http://127.0.0.1:${apiPort}/cluster`, { signal: AbortSignal.timeout(1500) });
  return (await response.json()) as { members: { name: string; role: string; state: string }[] };
}

/**
 * Three etcd 3.4 members, as production runs them (one per database host and a witness): losing
 * one leaves a majority, so Patroni can still elect. They serve the v2 API that deploy/ha/patroni.yml's
 * `etcd:` section uses (only when asked). Returns the client addresses, comma-separated as
 * PATRONI_ETCD_HOSTS takes them.
 */
async function startEtcd(baseDir: string) {
  const members: { name: string; client: string; peer: string }[] = [];
  for (const name of ['etcd1', 'etcd2', 'etcd3']) {
    members.push({ name, client: `127.0.0.1:${await freePort()}`, peer: `127.0.0.1:${await freePort()}` });
  }
  const initialCluster = members.map((m) => `${m.name}=http://${m.peer}`).join(',');
  let output = '';
  const processes = members.map((member) => {
    const etcd = spawn(
      'etcd',
      [
        `--name=${member.name}`,
        `--data-dir=${join(baseDir, member.name)}`,
        `--listen-client-urls=http://${member.client}`,
        `--advertise-client-urls=http://${member.client}`,
        `--listen-peer-urls=http://${member.peer}`,
        `--initial-advertise-peer-urls=http://${member.peer}`,
        `--initial-cluster=${initialCluster}`,
        '--initial-cluster-state=new',
        '--enable-v2=true',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    collect(etcd, (text) => {
      output = `${output}[${member.name}] ${text}`.slice(-20_000);
    });
    return etcd;
  });
  // Healthy once a leader is elected (a majority has met); every member then answers v2 reads.
  for (const member of members) {
    await until(
      `etcd member ${member.name}`,
      async () => (await fetch(`http://${member.client}/health`)).ok,
      60_000,
    );
  }
  return {
    hosts: members.map((m) => m.client).join(','),
    stop: () => {
      for (const etcd of processes) etcd.kill('SIGTERM');
    },
    output: () => output,
  };
}

/** What differs per member, given to Patroni over deploy/ha/patroni.yml. */
function patroniEnv(
  member: HaMember,
  baseDir: string,
  etcdHosts: string,
  passwords: { superuser: string; replication: string },
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: baseDir,
    PATRONI_NAME: member.name,
    PATRONI_RESTAPI_LISTEN: `127.0.0.1:${member.apiPort}`,
    PATRONI_RESTAPI_CONNECT_ADDRESS: `127.0.0.1:${member.apiPort}`,
    PATRONI_POSTGRESQL_LISTEN: `127.0.0.1:${member.pgPort}`,
    PATRONI_POSTGRESQL_CONNECT_ADDRESS: `127.0.0.1:${member.pgPort}`,
    PATRONI_POSTGRESQL_DATA_DIR: member.dataDir,
    PATRONI_POSTGRESQL_PGPASS: join(baseDir, `${member.name}.pgpass`),
    PATRONI_ETCD_HOSTS: etcdHosts,
    PATRONI_SUPERUSER_PASSWORD: passwords.superuser,
    PATRONI_REPLICATION_PASSWORD: passwords.replication,
    PATRONI_REWIND_PASSWORD: passwords.superuser,
  };
}

function startHaproxy(port: number, members: HaMember[]) {
  let output = '';
  const haproxy = spawn('haproxy', ['-db', '-f', HAPROXY_CFG], {
    env: {
      PATH: process.env.PATH,
      PAYGATE_HA_LISTEN: `127.0.0.1:${port}`,
      PAYGATE_HA_MEMBER1_PG: `127.0.0.1:${members[0]?.pgPort}`,
      PAYGATE_HA_MEMBER1_API_PORT: String(members[0]?.apiPort),
      PAYGATE_HA_MEMBER2_PG: `127.0.0.1:${members[1]?.pgPort}`,
      PAYGATE_HA_MEMBER2_API_PORT: String(members[1]?.apiPort),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  collect(haproxy, (text) => {
    output = (output + text).slice(-20_000);
  });
  return { process: haproxy, output: () => output };
}

function postmasterPid(member: HaMember): number | null {
  try {
    return Number(readFileSync(join(member.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

export async function startHaCluster(baseDir: string): Promise<HaCluster> {
  mkdirSync(baseDir, { recursive: true });
  chownSync(baseDir, uid(), gid());
  const haproxyPort = await freePort();
  const superuserPassword = randomBytes(12).toString('hex');
  const replicationPassword = randomBytes(12).toString('hex');
  const members: HaMember[] = [];
  for (const name of ['member1', 'member2']) {
    members.push({
      name,
      pgPort: await freePort(),
      apiPort: await freePort(),
      dataDir: join(baseDir, name),
      patroni: null,
      output: '',
    });
  }
  const etcd = await startEtcd(baseDir);

  const startMember = (member: HaMember) => {
    // Patroni runs postgres, which refuses root: both run as the postgres user.
    const patroni = spawn(
      'setpriv',
      ['--reuid=postgres', '--regid=postgres', '--init-groups', 'patroni', PATRONI_YML],
      {
        cwd: baseDir,
        env: patroniEnv(member, baseDir, etcd.hosts, {
          superuser: superuserPassword,
          replication: replicationPassword,
        }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    collect(patroni, (text) => {
      member.output = (member.output + text).slice(-30_000);
    });
    member.patroni = patroni;
  };
  for (const member of members) startMember(member);

  const haproxy = startHaproxy(haproxyPort, members);

  const cluster: HaCluster = {
    haproxyPort,
    superuserPassword,
    members,
    async leader() {
      return until('a leader', async () => {
        for (const member of members) {
          const response = await fetch(`http://127.0.0.1:${member.apiPort}/primary`, {
            signal: AbortSignal.timeout(1500),
          }).catch(() => null);
          if (response?.status === 200) return member;
        }
        return null;
      });
    },
    async healthy(timeoutMs = 120_000) {
      await until(
        'a leader and a synchronous standby',
        async () => {
          for (const member of members) {
            const state = await clusterState(member.apiPort).catch(() => null);
            if (!state) continue;
            const roles = state.members.filter((m) => m.state === 'running' || m.state === 'streaming');
            return roles.some((m) => m.role === 'leader') && roles.some((m) => m.role === 'sync_standby');
          }
          return false;
        },
        timeoutMs,
      );
    },
    nodePids(member) {
      const pids: number[] = [];
      if (member.patroni?.pid && member.patroni.exitCode === null && member.patroni.signalCode === null)
        pids.push(member.patroni.pid);
      const postmaster = postmasterPid(member);
      if (postmaster && spawnSync('kill', ['-0', String(postmaster)]).status === 0) {
        pids.push(postmaster, ...childrenOf(postmaster));
      }
      return pids;
    },
    postmasterPid,
    startMember,
    async stop() {
      for (const member of members) {
        for (const pid of cluster.nodePids(member)) spawnSync('kill', ['-CONT', String(pid)]);
        member.patroni?.kill('SIGTERM');
      }
      await until(
        'the members to stop',
        async () =>
          members.every((m) => !m.patroni || m.patroni.exitCode !== null || m.patroni.signalCode !== null),
        30_000,
      ).catch(() => {
        for (const member of members)
          for (const pid of cluster.nodePids(member)) spawnSync('kill', ['-KILL', String(pid)]);
      });
      haproxy.process.kill('SIGTERM');
      etcd.stop();
    },
    logs() {
      return [
        ...members.map((m) => `--- ${m.name} (patroni)\n${m.output.slice(-6000)}`),
        `--- haproxy\n${haproxy.output().slice(-4000)}`,
        `--- etcd\n${etcd.output().slice(-2000)}`,
      ].join('\n');
    },
  };
  return cluster;
}
