// Two checkouts of the service side by side, measured in alternating slices (issues 19 and 33).
//
//   npm run bench:ab                                   # this checkout (B) against the code before issue 33 (A)
//   npm run bench:ab -- --before <commit>              # against another commit, checked out by the bench
//   npm run bench:ab -- --a /tmp/base --b /tmp/branch  # two checkouts with their node_modules
//   options: --scenarios flow,create,retrieve,list (default flow,create,retrieve)  --slices <n> (default 8)
//            --seconds <s> (default 2)  --rows <n> (the list's seeded history, default 200,000)
//
// Each side runs on its own fresh database; the load (10 connections) goes to one side at a time,
// A then B then B then A, so a machine shared with other work loads both sides alike
// (bench/lib/service-ab.ts). A slice reports the service process's CPU per request and, in the full
// flow, service + PostgreSQL CPU per confirmed payment, read from /proc (PostgreSQL: the backends of
// that side's database, found by their process title, which other work cannot move): they move far
// less with the machine's load than the rates do. `--before` makes the other checkout with `git archive` under
// bench/tmp (bench/lib/before.ts), once.
import { parseArgs } from 'node:util';
import { BEFORE_ISSUE_33, checkoutBefore } from './lib/before.ts';
import { repoRoot } from './lib/processes.ts';
import { type AbScenario, runServiceAb } from './lib/service-ab.ts';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    before: { type: 'string' },
    scenarios: { type: 'string' },
    slices: { type: 'string' },
    seconds: { type: 'string' },
    rows: { type: 'string' },
  },
});
const log = (line: string) =>
  process.stderr.write(`[ab ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const a = values.a ?? checkoutBefore(values.before ?? BEFORE_ISSUE_33, log);
const b = values.b ?? repoRoot;
const result = await runServiceAb({
  roots: { A: a, B: b },
  scenarios: (values.scenarios ?? 'flow,create,retrieve').split(',') as AbScenario[],
  slices: Number(values.slices ?? 8),
  secondsPerSlice: Number(values.seconds ?? 2),
  historyRows: Number(values.rows ?? 200_000),
  log,
});
process.stdout.write(`${result.lines.join('\n')}\n`);
process.exit(0);
