import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { eventObjectByType, eventTypes } from '../src/events.ts';
import { renderOpenApi } from '../src/openapi.ts';
import { operations } from '../src/operations.ts';

describe('openapi.json', () => {
  it('is committed exactly as the schemas generate it (run `npm run openapi` after a schema change)', () => {
    const committed = readFileSync(new URL('../openapi.json', import.meta.url), 'utf8');
    assert.equal(committed, renderOpenApi());
  });

  it('describes every operation', () => {
    const document = JSON.parse(renderOpenApi());
    for (const operation of Object.values(operations)) {
      assert.ok(
        document.paths[operation.path]?.[operation.method.toLowerCase()],
        `${operation.method} ${operation.path}`,
      );
    }
  });

  it('describes every event type in webhooks:, with the envelope and the resource it carries', () => {
    const document = JSON.parse(renderOpenApi());
    assert.deepEqual(Object.keys(document.webhooks), eventTypes);
    for (const type of eventTypes) {
      const schema = document.webhooks[type].post.requestBody.content['application/json'].schema;
      assert.equal(schema.properties.type.const, type);
      assert.equal(schema.properties.object.const, 'event');
      assert.equal(schema.properties.data.properties.object.properties.object.const, eventObjectByType[type]);
    }
  });
});
