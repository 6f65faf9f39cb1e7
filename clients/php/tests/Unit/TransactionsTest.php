<?php

declare(strict_types=1);

namespace Paygate\Tests\Unit;

use Paygate\Exception\ConfigurationException;
use Paygate\Resource\Transaction;
use Paygate\Tests\Support\ScriptedServer;
use Paygate\Tests\Support\TestCase;

final class TransactionsTest extends TestCase
{
    /**
     * @return array<string, mixed>
     */
    private static function txn(string $id, int $amount): array
    {
        return ['id' => $id, 'object' => 'transaction', 'type' => 'PAYMENT', 'status' => 'APPROVED',
            'amount_minor' => $amount, 'currency' => 'USD', 'payment_intent_id' => 'pi_1', 'refund_id' => null];
    }

    public function testFollowsNextCursorWhileHasMoreAndNeverExposesIt(): void
    {
        $server = $this->server([
            ScriptedServer::json(200, ['data' => [self::txn('txn_1', 1), self::txn('txn_2', 2)],
                'has_more' => true, 'next_cursor' => 'c/2+']),
            ScriptedServer::json(200, ['data' => [self::txn('txn_3', 999999999999)],
                'has_more' => true, 'next_cursor' => 'c3']),
            ScriptedServer::json(200, ['data' => [], 'has_more' => false, 'next_cursor' => null]),
        ]);
        $client = $this->client($server->baseUrl);
        $since = new \DateTimeImmutable('2026-01-01T01:00:00+01:00');
        $items = iterator_to_array(
            $client->transactions->all(['status' => 'APPROVED', 'limit' => 2, 'from' => $since]),
            false,
        );
        self::assertContainsOnlyInstancesOf(Transaction::class, $items);
        self::assertSame(['txn_1', 'txn_2', 'txn_3'], array_map(static fn ($t) => $t->id, $items));
        self::assertSame(999999999999, $items[2]->amountMinor);
        $targets = array_column($server->requests(), 'target');
        self::assertSame([
            '/v1/transactions?status=APPROVED&limit=2&from=2026-01-01T00%3A00%3A00.000Z',
            '/v1/transactions?status=APPROVED&limit=2&from=2026-01-01T00%3A00%3A00.000Z&cursor=c%2F2%2B',
            '/v1/transactions?status=APPROVED&limit=2&from=2026-01-01T00%3A00%3A00.000Z&cursor=c3',
        ], $targets);
    }

    public function testRequestsNothingUntilIterationStarts(): void
    {
        $server = $this->server([ScriptedServer::json(200, ['data' => [], 'has_more' => false])]);
        $pages = $this->client($server->baseUrl)->transactions->all();
        self::assertSame([], $server->requests());
        self::assertSame([], iterator_to_array($pages));
        self::assertCount(1, $server->requests());
    }

    public function testStopsWhenAPageClaimsMoreButGivesNoCursor(): void
    {
        $server = $this->server([
            ScriptedServer::json(200, ['data' => [self::txn('txn_1', 1)], 'has_more' => true, 'next_cursor' => null]),
        ]);
        $items = iterator_to_array($this->client($server->baseUrl)->transactions->all(), false);
        self::assertCount(1, $items);
        self::assertCount(1, $server->requests());
    }

    public function testRetriesAPageLikeAnyGet(): void
    {
        $server = $this->server([
            ScriptedServer::json(200, ['data' => [self::txn('txn_1', 1)], 'has_more' => true, 'next_cursor' => 'c2']),
            ScriptedServer::problem(503, 'gateway_unavailable', [], ['Retry-After' => '2']),
            ScriptedServer::json(200, ['data' => [self::txn('txn_2', 2)], 'has_more' => false]),
        ]);
        $items = iterator_to_array($this->client($server->baseUrl)->transactions->all(), false);
        self::assertCount(2, $items);
        self::assertSame([2000], $this->sleeps);
    }

    public function testRefusesACursorOrAnUnknownFilter(): void
    {
        $client = $this->client('http://127.0.0.1:' . ScriptedServer::closedPort());
        foreach ([['cursor' => 'x'], ['state' => 'APPROVED'], ['limit' => 2.5]] as $params) {
            try {
                $client->transactions->all($params);
                self::fail('no exception for ' . json_encode($params));
            } catch (ConfigurationException $e) {
                self::assertNotSame('', $e->getMessage());
            }
        }
    }
}
