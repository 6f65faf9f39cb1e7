// No route registrar over 70 lines (docs/architecture.md): a registrar (a function whose first
// parameter is the FastifyInstance, in http/routes/ or backoffice/) lists its routes; the work of
// each is in a use case, a page, or a small helper beside it. Read with the TypeScript parser.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { serverSourceFiles, serverSrc } from './support/import-graph.ts';

const MAX_LINES = 70;

/** The registrars of a source text with their length in lines. */
function registrars(fileName: string, text: string): { name: string; lines: number }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; lines: number }[] = [];
  for (const statement of source.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.name || !statement.body) continue;
    if (statement.parameters[0]?.type?.getText(source) !== 'FastifyInstance') continue;
    const first = source.getLineAndCharacterOfPosition(statement.getStart()).line;
    const last = source.getLineAndCharacterOfPosition(statement.end).line;
    found.push({ name: `${fileName} ${statement.name.text}`, lines: last - first + 1 });
  }
  return found;
}

describe('route registrars', () => {
  it('measures a registrar, and only a registrar (the check itself)', () => {
    const body = Array.from({ length: 80 }, (_, i) => `  app.get('/r${i}', h);`).join('\n');
    const sample = `export async function long(app: FastifyInstance) {\n${body}\n}\nexport function other(x: number) {\n${body}\n}`;
    assert.deepEqual(registrars('x.ts', sample), [{ name: 'x.ts long', lines: 82 }]);
  });

  it(`are at most ${MAX_LINES} lines each`, () => {
    const all = serverSourceFiles()
      .filter((file) => file.startsWith('http/routes/') || file.startsWith('backoffice/'))
      .flatMap((file) => registrars(file, readFileSync(join(serverSrc, file), 'utf8')));
    assert.ok(all.length > 40, `only ${all.length} registrars found`);
    assert.deepEqual(
      all.filter((r) => r.lines > MAX_LINES).map((r) => `${r.name}: ${r.lines} lines`),
      [],
    );
  });
});
