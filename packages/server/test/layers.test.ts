// The layer rules of docs/architecture.md ("Rules that keep it this shape"), each a check on the
// static imports of packages/server/src (type-only imports count too: a layer that names another's
// types depends on it) or, for what imports cannot show, on the source text:
//   - http/ calls app/ only: never storage/, webhooks/, gateways/, crypto/, mail/, workers/, cli/,
//     nor the back office (backoffice/), which the composition root adds;
//   - the back office (backoffice/) and the checkout frame (checkout/) never import storage/;
//   - app/ never imports the layers above it (http/, backoffice/, cli/, workers/);
//   - webhooks/ never imports app/: the delivery worker is below the use cases;
//   - storage/ imports only domain/, its own files and libraries;
//   - domain/ imports nothing with I/O (only domain/ files and a few pure libraries) and never
//     reads the clock;
//   - connectors (gateways/) never touch the database, the use cases or HTTP;
//   - only main.ts, the command line's entry, imports cli/ (the composition root does not);
//   - transactions are opened in app/ (and by storage/'s own helpers, and the delivery worker's
//     attempt records in webhooks/, which is below app/ by design).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type ImportEdge, serverImportGraph, serverSourceFiles, serverSrc } from './support/import-graph.ts';

/** Libraries domain/ may use: none of them does I/O (node:crypto hashes and draws random bytes). */
const PURE_LIBRARIES = new Set(['node:crypto', '@paygate/contract', 'currency-codes', 'otpauth']);

const layer = (file: string) => (file.includes('/') ? (file.split('/')[0] as string) : file);
const named = (edge: ImportEdge) => `${edge.from} -> ${edge.to ?? edge.specifier}`;

interface Rule {
  name: string;
  /** Whether an import (from a file of the rule's layer) breaks the rule. */
  breaks: (edge: ImportEdge) => boolean;
  /** The layers whose imports the rule reads. */
  from: string[];
}

const importsLayer =
  (...layers: string[]) =>
  (edge: ImportEdge) =>
    edge.to !== null && layers.includes(layer(edge.to));

const RULES: Rule[] = [
  {
    name: 'http/ calls app/ only',
    from: ['http'],
    breaks: importsLayer('storage', 'webhooks', 'gateways', 'crypto', 'mail', 'workers', 'cli', 'backoffice'),
  },
  {
    name: 'the back office never imports storage/',
    from: ['backoffice'],
    breaks: importsLayer('storage', 'webhooks', 'gateways', 'crypto', 'workers', 'cli'),
  },
  {
    name: 'the checkout frame never imports storage/',
    from: ['checkout'],
    breaks: importsLayer('storage', 'app'),
  },
  {
    name: 'app/ never imports the layers above it',
    from: ['app'],
    breaks: importsLayer('http', 'backoffice', 'cli', 'workers'),
  },
  { name: 'webhooks/ never imports app/', from: ['webhooks'], breaks: importsLayer('app', 'http') },
  {
    name: 'storage/ imports only domain/ and its own files',
    from: ['storage'],
    breaks: (edge) => edge.to !== null && !['storage', 'domain'].includes(layer(edge.to)),
  },
  {
    name: 'domain/ imports only domain/ and pure libraries',
    from: ['domain'],
    breaks: (edge) => (edge.to === null ? !PURE_LIBRARIES.has(edge.specifier) : layer(edge.to) !== 'domain'),
  },
  {
    name: 'connectors never touch the database',
    from: ['gateways'],
    breaks: importsLayer('storage', 'app', 'http', 'webhooks', 'workers', 'cli'),
  },
  {
    name: 'only main.ts imports cli/',
    from: ['*'],
    breaks: (edge) => edge.from !== 'main.ts' && layer(edge.from) !== 'cli' && importsLayer('cli')(edge),
  },
];

/** Which rules an import breaks. */
function brokenRules(edge: ImportEdge): string[] {
  return RULES.filter(
    (rule) => (rule.from.includes('*') || rule.from.includes(layer(edge.from))) && rule.breaks(edge),
  ).map((rule) => rule.name);
}

/** The source of each non-test file of a layer, without comments (a comment may name anything). */
function sources(...layers: string[]): { file: string; code: string }[] {
  return serverSourceFiles()
    .filter((file) => layers.includes(layer(file)))
    .map((file) => ({
      file,
      code: readFileSync(join(serverSrc, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(^|[^:'"`])\/\/.*$/gm, '$1'),
    }));
}

/** Where transactions may be opened: app/, storage/'s own helpers, the delivery worker's attempt records. */
const OPENS_TRANSACTIONS = (file: string) =>
  ['app', 'storage'].includes(layer(file)) || file === 'webhooks/attempt-outcomes.ts';

describe('layer rules (docs/architecture.md)', () => {
  const edges = serverImportGraph();

  it('tells each kind of breach apart (the rules themselves)', () => {
    const edge = (from: string, to: string | null, specifier = to ?? ''): ImportEdge => ({
      from,
      to,
      specifier,
      typeOnly: false,
    });
    assert.deepEqual(brokenRules(edge('http/routes/v1/x.ts', 'storage/db.ts')), ['http/ calls app/ only']);
    assert.deepEqual(brokenRules(edge('http/plugins/auth.ts', 'storage/repositories/api-keys.ts')), [
      'http/ calls app/ only',
    ]);
    assert.deepEqual(brokenRules(edge('http/routes/admin/x.ts', 'webhooks/sender.ts')), [
      'http/ calls app/ only',
    ]);
    assert.deepEqual(brokenRules(edge('http/routes/v1/x.ts', 'app/payments/y.ts')), []);
    assert.deepEqual(brokenRules(edge('backoffice/dashboard/x/page.ts', 'storage/repositories/y.ts')), [
      'the back office never imports storage/',
    ]);
    assert.deepEqual(brokenRules(edge('http/app.ts', 'backoffice/wing.ts')), ['http/ calls app/ only']);
    assert.deepEqual(brokenRules(edge('backoffice/dashboard/routes.ts', 'http/declare-route.ts')), []);
    assert.deepEqual(brokenRules(edge('checkout/x.ts', 'storage/db.ts')), [
      'the checkout frame never imports storage/',
    ]);
    assert.deepEqual(brokenRules(edge('app/x/y.ts', 'backoffice/kit/layout.ts')), [
      'app/ never imports the layers above it',
    ]);
    assert.deepEqual(brokenRules(edge('app/x/y.ts', 'i18n/i18n.ts')), []);
    assert.deepEqual(brokenRules(edge('webhooks/x.ts', 'app/context.ts')), ['webhooks/ never imports app/']);
    assert.deepEqual(brokenRules(edge('webhooks/x.ts', 'storage/db.ts')), []);
    assert.deepEqual(brokenRules(edge('storage/x.ts', 'app/context.ts')), [
      'storage/ imports only domain/ and its own files',
    ]);
    assert.deepEqual(brokenRules(edge('storage/x.ts', 'domain/ids.ts')), []);
    assert.deepEqual(brokenRules(edge('storage/x.ts', null, 'pg')), []);
    assert.deepEqual(brokenRules(edge('domain/x.ts', null, 'node:fs')), [
      'domain/ imports only domain/ and pure libraries',
    ]);
    assert.deepEqual(brokenRules(edge('domain/x.ts', 'clock.ts')), [
      'domain/ imports only domain/ and pure libraries',
    ]);
    assert.deepEqual(brokenRules(edge('domain/x.ts', null, 'node:crypto')), []);
    assert.deepEqual(brokenRules(edge('gateways/stripe/x.ts', 'storage/db.ts')), [
      'connectors never touch the database',
    ]);
    assert.deepEqual(brokenRules(edge('service.ts', 'cli/demo-merchant.ts')), ['only main.ts imports cli/']);
    assert.deepEqual(brokenRules(edge('main.ts', 'cli/sim-command.ts')), []);
  });

  it('reads every layer it judges', () => {
    for (const name of [
      'http',
      'backoffice',
      'checkout',
      'app',
      'webhooks',
      'storage',
      'domain',
      'gateways',
    ]) {
      assert.ok(
        edges.some((e) => layer(e.from) === name),
        `imports of ${name}/ were read`,
      );
    }
  });

  it('has no breach of an import rule', () => {
    const broken = edges.flatMap((edge) => brokenRules(edge).map((rule) => `${named(edge)}: ${rule}`));
    assert.deepEqual(broken, []);
  });

  it("opens transactions only in app/ (and storage/, and the delivery worker's attempt records)", () => {
    const opening = sources(...new Set(serverSourceFiles().map(layer)))
      .filter(({ code }) => /\.transaction\(/.test(code))
      .map(({ file }) => file);
    assert.ok(
      opening.some((file) => layer(file) === 'app'),
      "the check finds the use cases' transactions",
    );
    assert.deepEqual(
      opening.filter((file) => !OPENS_TRANSACTIONS(file)),
      [],
    );
  });

  it('never reads the clock in domain/ (the caller passes now)', () => {
    const reading = sources('domain')
      .filter(({ code }) => /\bDate\.now\(|new Date\(\)|performance\.now\(/.test(code))
      .map(({ file }) => file);
    assert.deepEqual(reading, []);
  });
});
