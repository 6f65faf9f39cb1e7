#!/usr/bin/env node
// Counts the server files a confirm travels through: every file under packages/server/src
// reachable by static imports from the confirm route file and from the webhook delivery worker
// (docs/architecture.md, "A confirm, file by file", and issue 23).
//
// How it counts, so that a before/after comparison means something:
// - static `import ... from`, `export ... from` and `import '...'` of relative paths are followed;
// - type-only imports (`import type`, `export type`, and imports whose every name is `type`) are
//   NOT followed: the count is the modules that are loaded to run a confirm (this reproduces the
//   issue's hand count of 41 on the tree it was made on). `--with-types` follows them too, for
//   reference (the type-only import of `AppContext` then pulls in the whole service wiring);
// - dynamic `import()` is not followed (nothing on the path is loaded that way today);
// - package imports (`@paygate/contract`, `fastify`, ...) are outside the server and not counted;
// - test files are never reached (nothing on the path imports them).
// `node scripts/confirm-path.mjs` prints the list and the count; `--json` prints both as JSON.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const serverSrc = join(root, 'packages/server/src');
export const confirmPathStarts = ['http/routes/v1/payment-intents.ts', 'webhooks/delivery-worker.ts'];

/** `{ type A, type B }`: every name of the list is a type. */
function allTypes(elements) {
  return elements.length > 0 && elements.every((element) => element.isTypeOnly);
}

/** Whether an import or re-export brings in types alone (erased when the code runs). */
function isTypeOnly(statement) {
  if (ts.isExportDeclaration(statement)) {
    const names = statement.exportClause;
    return (
      statement.isTypeOnly || (names !== undefined && ts.isNamedExports(names) && allTypes(names.elements))
    );
  }
  const clause = statement.importClause;
  if (clause === undefined) return false;
  if (clause.isTypeOnly) return true;
  const names = clause.namedBindings;
  return (
    clause.name === undefined && names !== undefined && ts.isNamedImports(names) && allTypes(names.elements)
  );
}

/** The relative module specifiers a file imports statically (type-only ones only `withTypes`). */
function importedSpecifiers(file, withTypes) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const specifiers = [];
  for (const statement of source.statements) {
    const isImportOrReExport =
      ts.isImportDeclaration(statement) ||
      (ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined);
    if (isImportOrReExport && ts.isStringLiteral(statement.moduleSpecifier)) {
      if (!withTypes && isTypeOnly(statement)) continue;
      specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers.filter((s) => s.startsWith('.'));
}

/** Maps `./x.js` (the ESM spelling in the sources) to the TypeScript file it names. */
function resolveSpecifier(fromFile, specifier) {
  const base = resolve(dirname(fromFile), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts'), base];
  const found = candidates.find((c) => c.endsWith('.ts') && existsSync(c));
  if (found === undefined) throw new Error(`${relative(root, fromFile)}: cannot resolve ${specifier}`);
  return found;
}

/** Every server source file reachable from `starts` (paths relative to packages/server/src). */
export function confirmPathFiles(starts = confirmPathStarts, withTypes = false) {
  const seen = new Set();
  const pending = starts.map((s) => join(serverSrc, s));
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of importedSpecifiers(file, withTypes)) {
      const target = resolveSpecifier(file, specifier);
      if (target.startsWith(`${serverSrc}/`)) pending.push(target);
    }
  }
  return [...seen].map((f) => relative(serverSrc, f)).sort();
}

if (process.argv[1] && resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const files = confirmPathFiles(confirmPathStarts, process.argv.includes('--with-types'));
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ count: files.length, files }, null, 2));
  } else {
    for (const file of files) console.log(file);
    console.log(`${files.length} files on the confirm path (packages/server/src)`);
  }
}
