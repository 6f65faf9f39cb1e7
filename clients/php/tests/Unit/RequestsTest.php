<?php

declare(strict_types=1);

namespace Paygate\Tests\Unit;

use Paygate\Exception\ApiException;
use Paygate\Exception\ConfigurationException;
use Paygate\Resource\Dispute;
use Paygate\Resource\PaymentIntent;
use Paygate\Tests\Support\ScriptedServer;
use Paygate\Tests\Support\TestCase;

final class RequestsTest extends TestCase
{
    private const UUID_V4 = '/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/D';

    public function testCreateSendsTheKeyJsonAndAFreshUuidV4IdempotencyKeyReturnedWithTheResource(): void
    {
        $server = $this->server([
            ScriptedServer::json(201, self::intentBody()),
            ScriptedServer::json(201, self::intentBody()),
        ]);
        $client = $this->client($server->baseUrl);
        $first = $client->paymentIntents->create(['amount_minor' => 1999, 'currency' => 'USD', 'gateway_id' => 'sim']);
        $second = $client->paymentIntents->create(['amount_minor' => 1999, 'currency' => 'USD', 'gateway_id' => 'sim']);

        [$request, $secondRequest] = $server->requests();
        self::assertSame('POST', $request['method']);
        self::assertSame('/v1/payment-intents', $request['target']);
        self::assertSame(self::API_KEY, $request['headers']['x-api-key']);
        self::assertArrayNotHasKey('authorization', $request['headers']);
        self::assertSame('application/json', $request['headers']['content-type']);
        self::assertSame('paygate-php/1.0.0 php/' . PHP_VERSION, $request['headers']['user-agent']);
        self::assertSame('{"amount_minor":1999,"currency":"USD","gateway_id":"sim"}', $request['body']);
        self::assertMatchesRegularExpression(self::UUID_V4, $request['headers']['idempotency-key']);
        self::assertSame($request['headers']['idempotency-key'], $first->getIdempotencyKey());
        self::assertSame($secondRequest['headers']['idempotency-key'], $second->getIdempotencyKey());
        self::assertNotSame($first->getIdempotencyKey(), $second->getIdempotencyKey());
    }

    public function testGeneratedKeysAreVersion4WithTheRfcVariant(): void
    {
        $keys = [];
        for ($i = 0; $i < 200; $i++) {
            $key = \Paygate\IdempotencyKey::generate();
            self::assertMatchesRegularExpression(self::UUID_V4, $key);
            $keys[$key] = true;
        }
        self::assertCount(200, $keys);
    }

    public function testACallersIdempotencyKeyIsSentAsGivenAndReplaysAreFlagged(): void
    {
        $server = $this->server([ScriptedServer::json(201, [
            'id' => 're_1', 'object' => 'refund', 'amount_minor' => 500, 'payment_intent_id' => 'pi_1',
            'status' => 'PENDING', 'currency' => 'USD',
        ], ['Idempotent-Replayed' => 'true'])]);
        $refund = $this->client($server->baseUrl)->refunds->create(
            ['payment_intent_id' => 'pi_1', 'amount_minor' => 500],
            'order-42-refund-1',
        );
        self::assertSame('order-42-refund-1', $server->requests()[0]['headers']['idempotency-key']);
        self::assertSame('order-42-refund-1', $refund->getIdempotencyKey());
        self::assertTrue($refund->getLastResponse()?->replayed);
        self::assertSame('req_test_201', $refund->getLastResponse()?->requestId);
        self::assertSame(500, $refund->amountMinor);
    }

    /**
     * @return array<string, array{string}>
     */
    public static function invalidKeys(): array
    {
        return ['empty' => [''], 'too long' => [str_repeat('k', 256)], 'space' => ['a b'], 'newline' => ["a\nb"]];
    }

    /**
     * @dataProvider invalidKeys
     */
    public function testRefusesAnInvalidIdempotencyKeyBeforeSending(string $key): void
    {
        $client = $this->client('http://127.0.0.1:' . ScriptedServer::closedPort());
        $this->expectException(ConfigurationException::class);
        $client->paymentIntents->create(['amount_minor' => 1], $key);
    }

    public function testEmptyParamsAndEmptyMetadataTravelAsJsonObjects(): void
    {
        $server = $this->server([
            ScriptedServer::json(200, self::intentBody()),
            ScriptedServer::json(201, self::intentBody()),
        ]);
        $client = $this->client($server->baseUrl);
        $client->paymentIntents->cancel('pi_1');
        $client->paymentIntents->create((object) ['amount_minor' => 5, 'metadata' => new \stdClass()]);
        self::assertSame('{}', $server->requests()[0]['body']);
        self::assertSame('{"amount_minor":5,"metadata":{}}', $server->requests()[1]['body']);
    }

    public function testIdsAreEncodedAsOnePathSegmentAndAnEmptyIdIsRefused(): void
    {
        $server = $this->server([ScriptedServer::json(200, self::intentBody())]);
        $client = $this->client($server->baseUrl);
        $client->paymentIntents->confirm('pi_1/../x?y', ['payment_method_token' => 'tok_sim_approve']);
        self::assertSame('/v1/payment-intents/pi_1%2F..%2Fx%3Fy/confirm', $server->requests()[0]['target']);
        $this->expectException(ConfigurationException::class);
        $client->refunds->retrieve('');
    }

    public function testMoneyStaysAnExactIntegerAndObjectsStayObjects(): void
    {
        $body = '{"id":"pi_1","object":"payment_intent","amount_minor":999999999999,"currency":"CLP",'
            . '"metadata":{},"checkout":{"steps":[]},"livemode":false}';
        $server = $this->server([ScriptedServer::json(200, $body)]);
        $intent = $this->client($server->baseUrl)->paymentIntents->retrieve('pi_1');
        self::assertInstanceOf(PaymentIntent::class, $intent);
        self::assertSame(999999999999, $intent->amountMinor);
        self::assertSame(999999999999, $intent->amount_minor);
        self::assertEquals(new \stdClass(), $intent->metadata);
        self::assertSame($body, json_encode($intent));
    }

    public function testADisputeIsRetrievedByIdWithTypedProperties(): void
    {
        $body = '{"id":"dp_1","object":"dispute","payment_intent_id":"pi_1","amount_minor":999999999999,'
            . '"currency":"EUR","reason":"fraudulent","status":"NEEDS_RESPONSE","evidence_due_by":null,'
            . '"gateway_id":"stripe","livemode":false,"version":1,"created_at":"2026-11-26T10:00:00.000Z",'
            . '"updated_at":"2026-11-26T10:00:00.000Z"}';
        $server = $this->server([ScriptedServer::json(200, $body)]);
        $dispute = $this->client($server->baseUrl)->disputes->retrieve('dp_1');
        self::assertSame('/v1/disputes/dp_1', $server->requests()[0]['target']);
        self::assertInstanceOf(Dispute::class, $dispute);
        self::assertSame(999999999999, $dispute->amountMinor);
        self::assertSame(Dispute::STATUS_NEEDS_RESPONSE, $dispute->status);
        self::assertSame('fraudulent', $dispute->reason);
        self::assertNull($dispute->evidenceDueBy);
        self::assertSame(1, $dispute->version);
        self::assertSame($body, json_encode($dispute));
    }

    /**
     * @return array<string, array{string}>
     */
    public static function amountsThatAreNotIntegers(): array
    {
        return ['fraction' => ['19.99'], 'exponent' => ['1e3'], 'string' => ['"1999"'],
            'beyond int64' => ['99999999999999999999']];
    }

    /**
     * @dataProvider amountsThatAreNotIntegers
     */
    public function testAnAmountThatIsNotAnIntegerIsNeverRounded(string $amount): void
    {
        $server = $this->server([ScriptedServer::json(200, '{"id":"pi_1","amount_minor":' . $amount . '}')]);
        try {
            $this->client($server->baseUrl)->paymentIntents->retrieve('pi_1');
            self::fail('no exception');
        } catch (ApiException $e) {
            self::assertSame('unexpected_response', $e->getErrorCode());
            self::assertStringContainsString('amount_minor is not an integer', $e->getMessage());
        }
    }
}
