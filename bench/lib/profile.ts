// Summarises a V8 CPU profile (`node --cpu-prof`): self time by function and by module.
//   node --import tsx bench/lib/profile.ts bench/tmp/profiles/create-postgres.cpuprofile
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { round } from './load.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface SelfTime {
  name: string;
  where: string;
  ms: number;
  percent: number;
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  /** Share of samples in which the process was idle (waiting for I/O). */
  idlePercent: number;
  topFunctions: SelfTime[];
  byModule: SelfTime[];
}

const repo = new URL('../..', import.meta.url).pathname;

/** Where a function lives, short: `fastify`, `pg-protocol`, `server/src/app/idempotent-phases.ts`, `node:internal/...`. */
export function moduleOf(url: string): string {
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const inModules = path.lastIndexOf('/node_modules/');
  if (inModules >= 0) {
    const rest = path.slice(inModules + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? path);
  }
  if (path.startsWith(repo)) return path.slice(repo.length).replace(/^packages\//, '');
  if (path.startsWith('node:')) return path.split('/').slice(0, 2).join('/');
  return path;
}

const sourceMaps = new Map<string, SourceMap | null>();

/**
 * The service runs as one compiled file (packages/server/dist/main.js); its source map gives each
 * frame back its TypeScript file and line, so time is still attributed per source module.
 */
function originalFrame(frame: ProfileNode['callFrame']): ProfileNode['callFrame'] {
  if (!frame.url.endsWith('/dist/main.js')) return frame;
  const mapUrl = `${frame.url}.map`;
  if (!sourceMaps.has(mapUrl)) {
    const path = fileURLToPath(mapUrl);
    sourceMaps.set(mapUrl, existsSync(path) ? new SourceMap(JSON.parse(readFileSync(path, 'utf8'))) : null);
  }
  const entry = sourceMaps.get(mapUrl)?.findEntry(frame.lineNumber, frame.columnNumber);
  if (!entry || !('originalSource' in entry)) return frame;
  return { ...frame, url: new URL(entry.originalSource, mapUrl).href, lineNumber: entry.originalLine };
}

export function summariseProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  for (const node of profile.nodes) node.callFrame = originalFrame(node.callFrame);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  // Time in a native function or in Node's internals (a socket write, a hash) belongs to the
  // library or application code that called it: the nearest caller outside node:*.
  const jsCaller = (id: number): ProfileNode | undefined => {
    let current = parentOf.get(id);
    while (current !== undefined) {
      const node = byId.get(current);
      const url = node?.callFrame.url ?? '';
      if (url && !url.startsWith('node:')) return node;
      current = parentOf.get(current);
    }
    return undefined;
  };
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const totalUs = profile.endTime - profile.startTime;
  const functions = new Map<string, SelfTime>();
  const modules = new Map<string, SelfTime>();
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const name = frame.functionName || '(anonymous)';
    if (name === '(idle)') {
      idleUs += us;
      continue;
    }
    const caller = frame.url && !frame.url.startsWith('node:') ? undefined : jsCaller(id);
    const module = moduleOf(caller?.callFrame.url || frame.url);
    const where = caller
      ? `${frame.url ? moduleOf(frame.url) : 'native'}, called from ${caller.callFrame.functionName || '(anonymous)'} in ${module}:${caller.callFrame.lineNumber + 1}`
      : frame.url
        ? `${module}:${frame.lineNumber + 1}`
        : '(native)';
    const fKey = `${name} ${where}`;
    const f = functions.get(fKey) ?? { name, where, ms: 0, percent: 0 };
    f.ms += us / 1000;
    functions.set(fKey, f);
    const mKey = name.startsWith('(') && !caller ? name : module;
    const m = modules.get(mKey) ?? { name: mKey, where: '', ms: 0, percent: 0 };
    m.ms += us / 1000;
    modules.set(mKey, m);
  }
  const finish = (list: Iterable<SelfTime>) =>
    [...list]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top)
      .map((e) => ({ ...e, ms: round(e.ms, 0), percent: round((100 * e.ms * 1000) / totalUs, 1) }));
  return {
    file: file.startsWith(repo) ? file.slice(repo.length) : file,
    totalMs: round(totalUs / 1000, 0),
    idlePercent: round((100 * idleUs) / totalUs, 1),
    topFunctions: finish(functions.values()),
    byModule: finish(modules.values()),
  };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  for (const file of process.argv.slice(2)) {
    const summary = summariseProfile(file, 25);
    process.stdout.write(`${summary.file}: ${summary.totalMs} ms, idle ${summary.idlePercent}%\n`);
    for (const f of summary.topFunctions) process.stdout.write(`  ${f.percent}%  ${f.name}  ${f.where}\n`);
    process.stdout.write('by module:\n');
    for (const m of summary.byModule) process.stdout.write(`  ${m.percent}%  ${m.name}\n`);
  }
}
