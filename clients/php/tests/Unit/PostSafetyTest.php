<?php

declare(strict_types=1);

namespace Paygate\Tests\Unit;

use Paygate\Exception\ApiException;
use Paygate\Exception\CardException;
use Paygate\Exception\ConnectionException;
use Paygate\Exception\GatewayUnavailableException;
use Paygate\Exception\InternalServerException;
use Paygate\Exception\RateLimitException;
use Paygate\Tests\Support\ScriptedServer;
use Paygate\Tests\Support\TestCase;

final class PostSafetyTest extends TestCase
{
    private const CREATE = ['amount_minor' => 1999, 'currency' => 'USD', 'gateway_id' => 'sim'];

    /**
     * @return array<string, array{int, string, class-string<ApiException>}>
     */
    public static function retryableAnswers(): array
    {
        return [
            '500 internal_error' => [500, 'internal_error', InternalServerException::class],
            '503 gateway_unavailable' => [503, 'gateway_unavailable', GatewayUnavailableException::class],
            '429 rate_limited' => [429, 'rate_limited', RateLimitException::class],
        ];
    }

    /**
     * @dataProvider retryableAnswers
     * @param class-string<ApiException> $class
     */
    public function testNeverRetriesACreateThatGotAnAnswer(int $status, string $code, string $class): void
    {
        $server = $this->server([ScriptedServer::problem($status, $code, [], ['Retry-After' => '1'])]);
        try {
            $this->client($server->baseUrl)->paymentIntents->create(self::CREATE);
            self::fail('no exception');
        } catch (ApiException $e) {
            self::assertInstanceOf($class, $e);
            // The key travels with the error, so the caller can repeat the same POST safely.
            self::assertSame($server->requests()[0]['headers']['idempotency-key'], $e->getIdempotencyKey());
        }
        self::assertCount(1, $server->requests());
        self::assertSame([], $this->sleeps);
    }

    public function testNeverRetriesAConfirmThatWasDeclinedAndExposesTheFailedIntent(): void
    {
        $failed = self::intentBody(['status' => 'FAILED']);
        $server = $this->server([ScriptedServer::problem(402, 'card_declined', ['payment_intent' => $failed])]);
        try {
            $this->client($server->baseUrl)->paymentIntents->confirm('pi_1', ['payment_method_token' => 'tok_x']);
            self::fail('no exception');
        } catch (CardException $e) {
            self::assertSame('FAILED', $e->getPaymentIntent()?->status);
            self::assertSame(402, $e->getCode());
        }
        self::assertCount(1, $server->requests());
    }

    public function testNeverRetriesAPostWhoseConnectionDroppedAfterTheRequestWasRead(): void
    {
        $server = $this->server([['drop' => 'after_read'], ScriptedServer::json(201, [])]);
        try {
            $this->client($server->baseUrl)->refunds->create(['payment_intent_id' => 'pi_1'], 'order-42-refund-1');
            self::fail('no exception');
        } catch (ConnectionException $e) {
            self::assertTrue($e->mayHaveBeenSent());
            self::assertSame('order-42-refund-1', $e->getIdempotencyKey());
        }
        self::assertCount(1, $server->requests());
        self::assertSame([], $this->sleeps);
    }

    public function testNeverRetriesAPostWhoseConnectionDroppedBeforeAnAnswerDeliveryUnknown(): void
    {
        $server = $this->server([['drop' => 'before_read'], ScriptedServer::json(200, self::intentBody())]);
        try {
            $this->client($server->baseUrl)->paymentIntents->cancel('pi_1');
            self::fail('no exception');
        } catch (ConnectionException $e) {
            self::assertTrue($e->mayHaveBeenSent());
        }
        self::assertSame([], $server->requests());
        self::assertSame([], $this->sleeps);
    }

    public function testNeverRetriesAPostThatTimedOut(): void
    {
        $server = $this->server([ScriptedServer::json(200, self::intentBody()) + ['delay_ms' => 20000]]);
        try {
            $this->client($server->baseUrl, ['timeout' => 1])->paymentIntents->confirm('pi_1');
            self::fail('no exception');
        } catch (ConnectionException $e) {
            self::assertTrue($e->mayHaveBeenSent());
        }
        // Every retry waits first, so no wait means no second attempt.
        self::assertSame([], $this->sleeps);
        self::assertLessThanOrEqual(1, count($server->requests()));
    }

    public function testRetriesACreateRefusedAtConnectWithTheSameKeyOnceTheServiceIsUp(): void
    {
        $port = ScriptedServer::closedPort();
        $server = null;
        $client = $this->client("http://127.0.0.1:{$port}", [
            'sleep' => function (int $milliseconds) use (&$server, $port): void {
                $this->sleeps[] = $milliseconds;
                // The service comes up during the back-off wait.
                $server ??= $this->server([ScriptedServer::json(201, self::intentBody())], $port);
            },
        ]);
        $intent = $client->paymentIntents->create(self::CREATE, 'order-7-pay');
        self::assertSame('order-7-pay', $intent->getIdempotencyKey());
        self::assertNotNull($server);
        self::assertCount(1, $server->requests());
        self::assertSame('order-7-pay', $server->requests()[0]['headers']['idempotency-key']);
        self::assertCount(1, $this->sleeps);
    }
}
