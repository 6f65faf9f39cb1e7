// Writes the lists of events each connector reads into docs/gateways.md (a test fails while the
// two differ): node --import tsx packages/server/scripts/gateway-events.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { withEventLists } from '../src/gateways/events-docs.ts';

const docs = new URL('../../../docs/gateways.md', import.meta.url);
writeFileSync(docs, withEventLists(readFileSync(docs, 'utf8')));
