// Writes packages/contract/openapi.json from the operation table. `--check` fails on drift instead.
import { readFileSync, writeFileSync } from 'node:fs';
import { renderOpenApi } from '../src/openapi.ts';

const target = new URL('../openapi.json', import.meta.url);
const rendered = renderOpenApi();
if (process.argv.includes('--check')) {
  const committed = readFileSync(target, 'utf8');
  if (committed !== rendered) {
    console.error('openapi.json is out of date: run `npm run openapi`');
    process.exit(1);
  }
} else {
  writeFileSync(target, rendered);
  console.log('wrote openapi.json');
}
