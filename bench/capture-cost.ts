// `npm run bench:capture`: capture later, measured (issue 43, item 7). A manual payment (create,
// confirm to an authorisation, capture) against an automatic one (create, confirm), service +
// PostgreSQL CPU per payment in alternating slices of one run; then the plans of the to-capture
// list and the lapse job's claim at a large history. Writes bench/results/<date>-capture.json and
// the "Capture later" block of bench/RESULTS.md (`npm run bench` runs it too, as its part `capture`).
//
//   npm run bench:capture                                  8 slices of 6 s, 1,000,000 history rows
//   npm run bench:capture -- --slices 2 --seconds 2 --rows 10000   a quick look (writes nothing)
import { parseArgs } from 'node:util';
import { runCaptureCost, writeCaptureReport } from './lib/capture-cost.ts';
import { repoRoot } from './lib/processes.ts';

const { values } = parseArgs({
  options: {
    slices: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '6' },
    rows: { type: 'string', default: '1000000' },
  },
});
const quick = values.slices !== '8' || values.seconds !== '6' || values.rows !== '1000000';
const result = await runCaptureCost({
  slices: Number(values.slices),
  secondsPerSlice: Number(values.seconds),
  historyRows: Number(values.rows),
  log: (line) => process.stderr.write(`[capture] ${line}\n`),
});
if (!quick) writeCaptureReport(result, repoRoot);
process.stdout.write(
  `${JSON.stringify({ ratio: result.ratio, met: result.met, plans: result.plans }, null, 2)}\n`,
);
