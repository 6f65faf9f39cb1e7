import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadWebhookVectors, webhookVectorOutcomes } from '@paygate/contract/webhook-vectors';
import { signPayload, verifySignature, WebhookSignatureError } from './signing.ts';

const vectors = loadWebhookVectors();

/** The envelope shape the vector description defines for `invalid_payload`. */
function isEventEnvelope(body: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return false;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const e = value as Record<string, unknown>;
  const data = e.data as Record<string, unknown> | null | undefined;
  return (
    typeof e.id === 'string' &&
    /^evt_[0-9A-Za-z]{24}$/.test(e.id) &&
    e.object === 'event' &&
    typeof e.type === 'string' &&
    typeof e.created === 'string' &&
    typeof e.livemode === 'boolean' &&
    typeof data === 'object' &&
    data !== null &&
    typeof data.object === 'object' &&
    data.object !== null
  );
}

describe('webhook signature vectors', () => {
  it('are well formed and cover every outcome', () => {
    assert.equal(vectors.tolerance_seconds, 300);
    assert.ok(vectors.cases.length >= 20);
    const outcomes = new Set(vectors.cases.map((c) => c.error));
    for (const outcome of webhookVectorOutcomes) {
      assert.ok(outcomes.has(outcome), `no case for ${outcome}`);
    }
    for (const c of vectors.cases) assert.equal(c.valid, c.error === null, c.name);
    assert.ok(
      vectors.cases.some((c) => (c.header.match(/v1=/g) ?? []).length === 2),
      'a rotation header',
    );
    assert.equal(new Set(vectors.cases.map((c) => c.name)).size, vectors.cases.length, 'unique names');
  });

  it('match the committed generator output', () => {
    const script = fileURLToPath(
      new URL('../../../contract/scripts/generate-webhook-vectors.ts', import.meta.url),
    );
    const run = spawnSync(
      process.execPath,
      ['--conditions=development', '--import', 'tsx', script, '--check'],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(run.status, 0, run.stderr);
  });

  for (const c of vectors.cases) {
    it(`${c.name}: ${c.valid ? 'valid' : c.error}`, () => {
      const verify = () =>
        verifySignature(c.raw_body, c.header, c.secrets, {
          nowSeconds: c.now,
          toleranceSeconds: vectors.tolerance_seconds,
        });
      if (c.error === null || c.error === 'invalid_payload') {
        const { timestampSeconds } = verify();
        assert.equal(c.header.startsWith(`t=${timestampSeconds},`), true);
        assert.equal(isEventEnvelope(c.raw_body), c.error === null);
      } else {
        assert.throws(
          verify,
          (error: unknown) => error instanceof WebhookSignatureError && error.reason === c.error,
        );
      }
    });
  }

  it('are reproduced byte for byte by signPayload where the receiver holds the signing secrets', () => {
    let checked = 0;
    for (const c of vectors.cases) {
      const m = /^t=(\d+)((?:,v1=[0-9a-f]{64}){1,2})$/.exec(c.header);
      if (m === null || c.error !== null) continue;
      const timestampSeconds = Number(m[1]);
      const signatures = (m[2]!.match(/v1=/g) ?? []).length;
      const candidates =
        signatures === 1 ? c.secrets.map((s) => [s]) : c.secrets.length === 2 ? [c.secrets] : [];
      if (candidates.length === 0) continue;
      const ours = candidates.map((secrets) =>
        signPayload({ payload: c.raw_body, secrets, timestampSeconds }),
      );
      assert.ok(ours.includes(c.header), c.name);
      checked += 1;
    }
    assert.ok(checked >= 8, `only ${checked} vectors reproduced`);
  });
});
