import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  affectsClient,
  compareVersions,
  parseVersion,
  readDeprecationScope,
  withdrawalProblem,
} from './deprecations.ts';

describe('client versions', () => {
  it('orders by SemVer precedence: numbers as numbers, a pre-release before its release', () => {
    const ascending = [
      '0.9.0',
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.2.0',
      '1.9.0',
      '1.10.0',
      '2.0.0',
    ];
    for (let i = 0; i < ascending.length - 1; i += 1) {
      assert.equal(
        compareVersions(ascending[i] as string, ascending[i + 1] as string),
        -1,
        `${ascending[i]} < ${ascending[i + 1]}`,
      );
      assert.equal(compareVersions(ascending[i + 1] as string, ascending[i] as string), 1);
    }
    assert.equal(compareVersions('1.4.0', '1.4.0'), 0);
    assert.equal(compareVersions('1.4.0+build.7', '1.4.0'), 0, 'build metadata does not count');
  });

  it('is a total order on the versions it reads (antisymmetric, transitive)', () => {
    const part = fc.integer({ min: 0, max: 30 });
    const pre = fc.array(fc.oneof(fc.constantFrom('alpha', 'beta', 'rc'), part.map(String)), {
      maxLength: 3,
    });
    const version = fc
      .tuple(part, part, part, pre)
      .map(([a, b, c, p]) => `${a}.${b}.${c}${p.length ? `-${p.join('.')}` : ''}`);
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        assert.equal(compareVersions(a, b), -compareVersions(b, a));
        if (compareVersions(a, b) <= 0 && compareVersions(b, c) <= 0) assert.ok(compareVersions(a, c) <= 0);
      }),
    );
  });

  it('reads only semantic versions', () => {
    for (const bad of ['1', '1.2', 'v1.2.3', '01.2.3', '1.2.3-', '1.2.x', '', '1.2.3.4']) {
      assert.equal(parseVersion(bad), null, bad);
    }
    assert.throws(() => compareVersions('1.2', '1.0.0'), /not a semantic version: 1\.2/);
  });
});

describe('who a deprecation affects', () => {
  const scope = { clients: [{ name: 'paygate-node' as const, below: '2.0.0' }] };

  it('a named client older than the bound, and nothing else', () => {
    assert.equal(affectsClient(scope, { client: 'paygate-node', version: '1.9.9' }), true);
    assert.equal(affectsClient(scope, { client: 'paygate-node', version: '2.0.0-rc.1' }), true);
    assert.equal(affectsClient(scope, { client: 'paygate-node', version: '2.0.0' }), false);
    assert.equal(affectsClient(scope, { client: 'paygate-node', version: '10.0.0' }), false);
    assert.equal(affectsClient(scope, { client: 'paygate-python', version: '1.0.0' }), false);
    assert.equal(
      affectsClient(scope, { client: 'other', version: '' }),
      false,
      'an unread version is not older',
    );
  });

  it('every caller for a contract', () => {
    assert.equal(affectsClient({ contract: 'v1' }, { client: 'other', version: '' }), true);
    assert.equal(affectsClient({ contract: 'v1' }, { client: 'paygate-java', version: '9.0.0' }), true);
  });
});

describe('reading an announcement', () => {
  it('takes exactly one of clients and contract', () => {
    assert.deepEqual(readDeprecationScope({ contract: 'v1' }), { contract: 'v1' });
    assert.deepEqual(readDeprecationScope({ clients: [{ name: 'paygate-php', below: '1.4.0' }] }), {
      clients: [{ name: 'paygate-php', below: '1.4.0' }],
    });
    assert.deepEqual(readDeprecationScope({})['field' as never], 'affected');
    const both = readDeprecationScope({ contract: 'v1', clients: [{ name: 'paygate-php', below: '1.0.0' }] });
    assert.deepEqual(both, { field: 'affected', message: 'must name either clients or contract, not both' });
  });

  it('names the field of an unknown client, a bad version, a repeated client, an unknown contract', () => {
    const fieldOf = (affected: Parameters<typeof readDeprecationScope>[0]) =>
      (readDeprecationScope(affected) as { field?: string }).field;
    assert.equal(fieldOf({ clients: [{ name: 'paygate-ruby', below: '1.0.0' }] }), 'affected.clients.0.name');
    assert.equal(
      fieldOf({
        clients: [
          { name: 'paygate-node', below: '1.0.0' },
          { name: 'paygate-node', below: 'latest' },
        ],
      }),
      'affected.clients.1.below',
    );
    assert.equal(
      fieldOf({
        clients: [
          { name: 'paygate-node', below: '1.0.0' },
          { name: 'paygate-node', below: '2.0.0' },
        ],
      }),
      'affected.clients.1.name',
    );
    assert.equal(fieldOf({ contract: 'v2' }), 'affected.contract');
  });

  it('takes a withdrawal day after today only', () => {
    assert.equal(withdrawalProblem('2026-12-01', '2026-11-26'), null);
    assert.match(withdrawalProblem('2026-11-26', '2026-11-26') ?? '', /after today/);
    assert.match(withdrawalProblem('2025-01-01', '2026-11-26') ?? '', /after today/);
    assert.match(withdrawalProblem('2027-02-30', '2026-11-26') ?? '', /real calendar day/);
    assert.match(withdrawalProblem('next month', '2026-11-26') ?? '', /YYYY-MM-DD/);
  });
});
