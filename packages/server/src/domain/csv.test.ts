import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { csvCell, csvLine } from './csv.ts';

/** A minimal RFC 4180 reader, to check that what we write reads back as the cells we meant. */
function parseLine(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (line[i] === '"') {
      i += 1;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (line[i] === '"') {
          i += 1;
          break;
        } else cell += line[i++];
      }
    } else {
      while (i < line.length && line[i] !== ',' && !(line[i] === '\r' && line[i + 1] === '\n'))
        cell += line[i++];
    }
    cells.push(cell);
    if (line[i] === ',') i += 1;
    else break;
  }
  return cells;
}

describe('CSV cells', () => {
  it('quotes commas, quotes and line breaks', () => {
    assert.equal(
      csvLine(['a,b', 'say "hi"', 'two\nlines', 'plain']),
      '"a,b","say ""hi""","two\nlines",plain\r\n',
    );
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    for (const formula of ['=HYPERLINK("http://x")', '+1+1', '-2+3', '@SUM(A1)', '\tTAB', '\rCR']) {
      assert.ok(csvCell(formula).replace(/^"/, '').startsWith("'"), formula);
    }
    assert.equal(csvCell('=1+1'), "'=1+1");
    assert.equal(csvCell('a=1'), 'a=1', 'only a leading sign is a formula');
  });

  it('writes integers as integers and refuses anything else', () => {
    assert.equal(csvCell(999_999_999_999), '999999999999');
    assert.equal(csvCell(-5), '-5', 'a number is never a formula, even a negative one');
    assert.throws(() => csvCell(12.5), RangeError);
    assert.equal(csvCell(null), '');
  });

  it('reads back as the cells written, for any text (formula prefix aside)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 6 }), (cells) => {
        const back = parseLine(csvLine(cells));
        assert.deepEqual(
          back,
          cells.map((c) => (/^[=+\-@\t\r]/.test(c) ? `'${c}` : c)),
        );
      }),
    );
  });
});
