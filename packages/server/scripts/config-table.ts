// Writes the configuration table of docs/operations.md from src/config-schema.ts (a test fails
// while the two differ): node --import tsx packages/server/scripts/config-table.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { withConfigTable } from '../src/config-docs.ts';

const docs = new URL('../../../docs/operations.md', import.meta.url);
writeFileSync(docs, withConfigTable(readFileSync(docs, 'utf8')));
