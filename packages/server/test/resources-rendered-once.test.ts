// Every resource the service answers or prints is rendered in app/resources/ (docs/architecture.md):
// an `object: '<name>'` property written anywhere else in packages/server/src is a second copy of a
// resource's shape, which drifts from the first. Read with the TypeScript parser, so that types
// (`object: 'charge' | 'refund'`) and parameters are not mistaken for resources.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { serverSourceFiles, serverSrc } from './support/import-graph.ts';

/**
 * The one exception: an event's envelope is built by the pure domain (domain/events.ts) as the
 * change that causes it is decided, and written to the outbox in the same transaction; the object
 * it carries comes from app/resources/.
 */
const EXCEPTIONS = new Set(['domain/events.ts']);

/** The `object: '<literal>'` properties of a source text, as `line: text`. */
function resourceLiterals(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'object') {
      let value: ts.Expression = node.initializer;
      while (ts.isAsExpression(value) || ts.isParenthesizedExpression(value)) value = value.expression;
      if (ts.isStringLiteral(value) || ts.isNoSubstitutionTemplateLiteral(value)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${fileName}:${line + 1}: object: '${value.text}'`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('resources rendered once, in app/resources/', () => {
  it('finds a resource written outside app/resources/, and not a type or a parameter (the check itself)', () => {
    const sample = `
      type Difference = { object: 'charge' | 'refund' };
      function f(object: 'charge') { return object; }
      export const a = () => ({ object: 'list' as const, data: [] });
      export const b = { object: 'operator', id: 'op_1' };`;
    assert.deepEqual(resourceLiterals('x.ts', sample), [
      "x.ts:4: object: 'list'",
      "x.ts:5: object: 'operator'",
    ]);
  });

  it('has no resource rendered outside app/resources/', () => {
    const files = serverSourceFiles().filter(
      (file) => !file.startsWith('app/resources/') && !EXCEPTIONS.has(file),
    );
    assert.ok(
      files.some((file) => file.startsWith('http/routes/')),
      'the routes were read',
    );
    const found = files.flatMap((file) =>
      resourceLiterals(file, readFileSync(join(serverSrc, file), 'utf8')),
    );
    assert.deepEqual(found, []);
  });

  it('keeps its exceptions true (each still renders an object, so none is stale)', () => {
    for (const file of EXCEPTIONS) {
      assert.ok(resourceLiterals(file, readFileSync(join(serverSrc, file), 'utf8')).length > 0, file);
    }
  });
});
