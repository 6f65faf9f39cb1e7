// The static import graph of packages/server/src, read with the TypeScript parser: every
// `import … from`, `export … from` and bare `import '…'` of a relative path, each marked when it
// brings in types alone (erased when the code runs). Dynamic `import()` is not an edge. Used by
// the tests that keep the graph free of circles and true to the layers of docs/architecture.md.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const serverSrc = fileURLToPath(new URL('../../src', import.meta.url));

export interface ImportEdge {
  /** Importing file, relative to packages/server/src. */
  from: string;
  /** The module specifier as written. */
  specifier: string;
  /**
   * The imported file relative to packages/server/src (a JSON file or one outside src starts with
   * `..` or does not end in .ts), or null for a package.
   */
  to: string | null;
  /** Types alone: `import type`, `export type`, or a list whose every name is `type`. */
  typeOnly: boolean;
}

/** Every non-test .ts file under packages/server/src, relative to it. */
export function serverSourceFiles(dir = serverSrc): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...serverSourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) found.push(path);
  }
  return dir === serverSrc ? found.map((f) => relative(serverSrc, f)).sort() : found;
}

function allTypes(elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>): boolean {
  return elements.length > 0 && elements.every((element) => element.isTypeOnly);
}

function isTypeOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
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

function resolveRelative(fromFile: string, specifier: string): string {
  const base = resolve(dirname(join(serverSrc, fromFile)), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts'), base];
  const found =
    candidates.find((c) => existsSync(c) && c.endsWith('.ts')) ?? (existsSync(base) ? base : undefined);
  if (found === undefined) throw new Error(`${fromFile}: cannot resolve ${specifier}`);
  return relative(serverSrc, found);
}

/** The static imports of one source file. */
export function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(join(serverSrc, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  const edges: ImportEdge[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const spec = statement.moduleSpecifier;
    if (spec === undefined || !ts.isStringLiteral(spec)) continue;
    const specifier = spec.text;
    const to = specifier.startsWith('.') ? resolveRelative(file, specifier) : null;
    edges.push({ from: file, specifier, to, typeOnly: isTypeOnly(statement) });
  }
  return edges;
}

/** Every static import of every server source file. */
export function serverImportGraph(): ImportEdge[] {
  return serverSourceFiles().flatMap(importsOf);
}

/**
 * The import circles of the graph: each strongly connected component of more than one file (or a
 * file importing itself), as its files sorted, with one concrete circle through them for the message.
 */
export function importCircles(edges: readonly ImportEdge[]): { files: string[]; example: string[] }[] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.to === null) continue;
    const list = next.get(edge.from) ?? [];
    list.push(edge.to);
    next.set(edge.from, list);
  }
  // Tarjan's algorithm, iterative so that a deep graph cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const nodes = [...new Set([...next.keys(), ...[...next.values()].flat()])].sort();
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: { node: string; i: number }[] = [{ node: root, i: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; i: number };
      const targets = next.get(frame.node) ?? [];
      if (frame.i < targets.length) {
        const target = targets[frame.i++] as string;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, i: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent)
        low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = (next.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  }
  return components.map((files) => ({ files, example: circleThrough(files, next) }));
}

/** One circle inside a component: a shortest path from its first file back to itself. */
function circleThrough(files: string[], next: Map<string, string[]>): string[] {
  const inside = new Set(files);
  const start = files[0] as string;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const target of next.get(node) ?? []) {
      if (!inside.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = node; at !== start; at = cameFrom.get(at) as string) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return files;
}
