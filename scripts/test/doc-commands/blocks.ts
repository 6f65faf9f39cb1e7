// The fenced ```sh blocks of README.md and docs/*.md, and how the doc runner turns one into the
// bash a reader would type: the placeholders a reader fills in from what earlier commands printed
// (`sk_test_...`, `acct_...`, `pi_...`), the documented ports moved to free ones, and each
// long-running command (a service, `listen`, a fake) started in the background, as a reader
// starts it in another terminal.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Block {
  doc: string;
  line: number;
  text: string;
  skipped: boolean;
  /** The tests a skip mark names (`covered by A and B`), which run the block themselves. */
  coveredBy?: string[];
}

const SKIP = /^<!-- doc-test: skip, covered by (\S+(?: and \S+)*) -->$/;

export function docsWithCommands(root: string): string[] {
  const docs = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
  ];
  return docs.filter((doc) => shBlocks(root, doc).length > 0);
}

export function shBlocks(root: string, doc: string): Block[] {
  const lines = readFileSync(join(root, doc), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i] ?? '');
    let previous = start - 1;
    while (previous >= 0 && (lines[previous] ?? '').trim() === '') previous--;
    const coveredBy = SKIP.exec((lines[previous] ?? '').trim())?.[1]?.split(' and ');
    blocks.push({ doc, line: start + 1, text: body.join('\n'), skipped: coveredBy !== undefined, coveredBy });
  }
  return blocks;
}

/**
 * The blocks whose skip mark names `test` (repo-relative), in document order: the commands that
 * test runs as printed (doc-test-marks.test.ts checks that each such test reads its blocks here).
 */
export function coveredBlocks(root: string, test: string): Block[] {
  const found = docsWithCommands(root).flatMap((doc) =>
    shBlocks(root, doc).filter((block) => block.coveredBy?.includes(test)),
  );
  if (found.length === 0) throw new Error(`no doc block is marked as covered by ${test}`);
  return found;
}

/** A command that keeps running until stopped, and what it prints once it is ready. */
const LONG_RUNNING: { command: RegExp; ready: RegExp; service: boolean }[] = [
  {
    command: /\bnpm (start|run dev)\b|\bpaygate -- start\b|\bmain\.js start\b/,
    ready: /Paygate is listening on/,
    service: true,
  },
  { command: /\bpaygate -- listen\b/, ready: /Ready! Your webhook signing secret is/, service: false },
  { command: /\bpaygate -- sim\b/, ready: /Simulated gateway listening on/, service: false },
  { command: /\bpaygate -- worker\b/, ready: /worker/i, service: false },
  { command: /\bnpm run fake:\w+/, ready: /listening|127\.0\.0\.1:[0-9]+/i, service: false },
];

export interface LongRunning {
  ready: RegExp;
  service: boolean;
}

export function longRunning(line: string): LongRunning | null {
  const code = withoutComment(line);
  for (const entry of LONG_RUNNING) if (entry.command.test(code)) return entry;
  return null;
}

/**
 * The logical lines of a block: continuation lines and quoted strings that span lines (a JSON
 * body) joined; blank and comment-only lines kept.
 */
export function logicalLines(text: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    const joined = current + line;
    if (openQuote(joined)) {
      current = `${joined}\n`;
      continue;
    }
    const code = withoutComment(joined);
    if (code.trimEnd().endsWith('\\')) {
      current = `${code.trimEnd().slice(0, -1)} `;
      continue;
    }
    out.push(joined);
    current = '';
  }
  if (current) out.push(current);
  return out;
}

function openQuote(text: string): boolean {
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
      const end = text.indexOf('\n', i);
      if (end < 0) return false;
      i = end;
    }
  }
  return quote !== '';
}

/** The line without a trailing `# comment` (outside quotes; the docs' commands quote no '#'). */
export function withoutComment(line: string): string {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) return line.slice(0, i);
  }
  return line;
}

export function quoteForBash(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
