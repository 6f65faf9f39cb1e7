// A node:test reporter for scripts/test.mjs: writes one JSON line per test file (tests passed
// and failed, and its time) so that the run can end with one summary block. The spec reporter
// still prints the tests themselves.
export default async function* summaryReporter(source) {
  const files = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    const key = file ?? '(unknown file)';
    const entry = files.get(key) ?? { file: key, passed: 0, failed: 0, durationMs: 0 };
    // Suites are counted through their tests; a file that fails to load is one failed test.
    if (details?.type !== 'suite') {
      if (event.type === 'test:pass') entry.passed += 1;
      else entry.failed += 1;
    }
    if (nesting === 0) entry.durationMs += details?.duration_ms ?? 0;
    files.set(key, entry);
  }
  for (const entry of files.values()) yield `${JSON.stringify(entry)}\n`;
}
