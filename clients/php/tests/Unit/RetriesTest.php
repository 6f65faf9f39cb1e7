<?php

declare(strict_types=1);

namespace Paygate\Tests\Unit;

use Paygate\Exception\ConnectionException;
use Paygate\Exception\GatewayUnavailableException;
use Paygate\Exception\IdempotencyException;
use Paygate\Exception\InternalServerException;
use Paygate\Exception\NotFoundException;
use Paygate\Exception\RateLimitException;
use Paygate\RequestSender;
use Paygate\Tests\Support\ScriptedServer;
use Paygate\Tests\Support\TestCase;

final class RetriesTest extends TestCase
{
    public function testBackoffIsFullJitterFromBase500msDoublingUpToAnEightSecondCap(): void
    {
        $ceilings = [];
        for ($retry = 0; $retry < 7; $retry++) {
            self::assertSame(0, RequestSender::backoffMs($retry, 0.0));
            $ceilings[] = RequestSender::backoffMs($retry, 0.999999);
        }
        self::assertSame([499, 999, 1999, 3999, 7999, 7999, 7999], $ceilings);
        self::assertSame(250, RequestSender::backoffMs(0, 0.5));
    }

    public function testRetryAfterReadsSecondsAndDatesCappedAtSixtySeconds(): void
    {
        self::assertSame(3000, RequestSender::retryAfterMs('3', 0));
        self::assertSame(60000, RequestSender::retryAfterMs('120', 0));
        self::assertSame(0, RequestSender::retryAfterMs('0', 0));
        $now = 1767225600; // Thu, 01 Jan 2026 00:00:00 GMT
        self::assertSame(12000, RequestSender::retryAfterMs('Thu, 01 Jan 2026 00:00:12 GMT', $now));
        self::assertSame(60000, RequestSender::retryAfterMs('Thu, 01 Jan 2026 01:00:00 GMT', $now));
        self::assertSame(0, RequestSender::retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', $now));
        self::assertNull(RequestSender::retryAfterMs(null, $now));
        self::assertNull(RequestSender::retryAfterMs('soon', $now));
        self::assertNull(RequestSender::retryAfterMs('-5', $now));
    }

    public function testRetriesAGetOn500ThenSucceeds(): void
    {
        $server = $this->server([
            ScriptedServer::problem(500, 'internal_error'),
            ScriptedServer::problem(502, 'bad_gateway'),
            ScriptedServer::json(200, self::intentBody()),
        ]);
        $intent = $this->client($server->baseUrl, ['random' => static fn (): float => 0.5])
            ->paymentIntents->retrieve('pi_1');
        self::assertSame(1999, $intent->amountMinor);
        self::assertCount(3, $server->requests());
        self::assertSame([250, 500], $this->sleeps);
    }

    public function testGivesUpAfterMaxRetriesWithTheLastError(): void
    {
        $server = $this->server(array_fill(0, 3, ScriptedServer::problem(500, 'internal_error')));
        try {
            $this->client($server->baseUrl)->refunds->retrieve('re_1');
            self::fail('no exception');
        } catch (InternalServerException $e) {
            self::assertSame(500, $e->getStatus());
        }
        self::assertCount(3, $server->requests());
        self::assertCount(2, $this->sleeps);
    }

    public function testMaxRetriesZeroMakesOneAttempt(): void
    {
        $server = $this->server([ScriptedServer::problem(500, 'internal_error')]);
        $this->expectException(InternalServerException::class);
        try {
            $this->client($server->baseUrl, ['max_retries' => 0])->paymentIntents->retrieve('pi_1');
        } finally {
            self::assertCount(1, $server->requests());
            self::assertSame([], $this->sleeps);
        }
    }

    public function testHonoursRetryAfterOn429RateLimitedAndCapsItAtSixtySeconds(): void
    {
        $server = $this->server([
            ScriptedServer::problem(429, 'rate_limited', [], ['Retry-After' => '3']),
            ScriptedServer::problem(429, 'rate_limited', [], ['Retry-After' => '3600']),
            ScriptedServer::problem(429, 'rate_limited', [], ['Retry-After' => '1']),
        ]);
        try {
            $this->client($server->baseUrl)->paymentIntents->retrieve('pi_1');
            self::fail('no exception');
        } catch (RateLimitException $e) {
            self::assertSame('rate_limited', $e->getErrorCode());
        }
        self::assertSame([3000, 60000], $this->sleeps);
    }

    public function testHonoursRetryAfterOn503GatewayUnavailable(): void
    {
        $server = $this->server([
            ScriptedServer::problem(503, 'gateway_unavailable', [], ['Retry-After' => '7']),
            ScriptedServer::json(200, self::intentBody()),
        ]);
        $this->client($server->baseUrl)->paymentIntents->retrieve('pi_1');
        self::assertSame([7000], $this->sleeps);
    }

    public function testIgnoresRetryAfterOnOtherStatuses(): void
    {
        $server = $this->server([
            ScriptedServer::problem(500, 'internal_error', [], ['Retry-After' => '30']),
            ScriptedServer::problem(502, 'bad_gateway', [], ['Retry-After' => '30']),
            ScriptedServer::json(200, self::intentBody()),
        ]);
        $this->client($server->baseUrl, ['random' => static fn (): float => 0.999999])
            ->paymentIntents->retrieve('pi_1');
        self::assertSame([499, 999], $this->sleeps);
    }

    public function testDoesNotRetryAGetOnA4xx(): void
    {
        $server = $this->server([ScriptedServer::problem(404, 'resource_not_found')]);
        $this->expectException(NotFoundException::class);
        try {
            $this->client($server->baseUrl)->paymentIntents->retrieve('pi_404');
        } finally {
            self::assertCount(1, $server->requests());
            self::assertSame([], $this->sleeps);
        }
    }

    public function testDoesNotRetryA409(): void
    {
        $server = $this->server([ScriptedServer::problem(409, 'idempotency_key_in_flight')]);
        $this->expectException(IdempotencyException::class);
        try {
            $this->client($server->baseUrl)->paymentIntents->retrieve('pi_1');
        } finally {
            self::assertCount(1, $server->requests());
        }
    }

    public function testRetriesAGetWhoseConnectionDroppedAndAGetThatTimedOut(): void
    {
        $server = $this->server([
            ['drop' => 'after_read'],
            ['drop' => 'before_read'],
            // Stalls far beyond the time-out (the server stops stalling once the client hangs up).
            ScriptedServer::json(200, self::intentBody(), []) + ['delay_ms' => 30000],
            ScriptedServer::json(200, self::intentBody()),
        ]);
        $intent = $this->client($server->baseUrl, ['timeout' => 2, 'max_retries' => 3])
            ->paymentIntents->retrieve('pi_1');
        self::assertSame('pi_3Jd8kQ2mZx7LpR5vT9wB4nYc', $intent->id);
        self::assertCount(3, $this->sleeps);
    }

    public function testARefusedGetEndsInAConnectionErrorAfterEveryAttempt(): void
    {
        $client = $this->client('http://127.0.0.1:' . ScriptedServer::closedPort());
        try {
            $client->paymentIntents->retrieve('pi_1');
            self::fail('no exception');
        } catch (ConnectionException $e) {
            self::assertFalse($e->mayHaveBeenSent());
            self::assertStringContainsString('after 3 attempt(s)', $e->getMessage());
        }
        self::assertCount(2, $this->sleeps);
    }

    public function testGatewayUnavailableGetIsRetriedThenSurfaces(): void
    {
        $server = $this->server(array_fill(0, 3, ScriptedServer::problem(503, 'gateway_unavailable')));
        $this->expectException(GatewayUnavailableException::class);
        $this->client($server->baseUrl)->paymentIntents->retrieve('pi_1');
    }
}
