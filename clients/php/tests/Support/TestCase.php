<?php

declare(strict_types=1);

namespace Paygate\Tests\Support;

use Paygate\PaygateClient;

abstract class TestCase extends \PHPUnit\Framework\TestCase
{
    public const API_KEY = 'sk_test_0123456789abcdefghijklmnopqrstuvwxyz';

    /** @var list<ScriptedServer> */
    private array $servers = [];
    /** @var list<int> the back-off waits the client asked for */
    protected array $sleeps = [];

    /** A payment intent as the service sends it. */
    public static function intentBody(array $overrides = []): array
    {
        return $overrides + [
            'id' => 'pi_3Jd8kQ2mZx7LpR5vT9wB4nYc',
            'object' => 'payment_intent',
            'amount_minor' => 1999,
            'currency' => 'USD',
            'status' => 'CREATED',
            'gateway_id' => 'sim',
            'redirect_url' => null,
            'return_url' => null,
            'metadata' => new \stdClass(),
            'livemode' => false,
            'amount_refunded_minor' => 0,
            'payment_method' => null,
            'created_at' => '2026-01-01T00:00:00.000Z',
            'expires_at' => '2026-01-02T00:00:00.000Z',
            'client_secret' => 'pi_3Jd8kQ2mZx7LpR5vT9wB4nYc_secret_abcdefghijklmnopqrstuvwx',
        ];
    }

    /**
     * The raw text of a fixture shared by every client (clients/conformance/fixtures: recorded from
     * the real service or generated from the contract, and checked against the contract there).
     */
    public static function fixtureText(string $name): string
    {
        $text = file_get_contents(__DIR__ . '/../../../conformance/fixtures/' . $name);
        self::assertIsString($text, "fixture {$name}");
        return $text;
    }

    /** A shared fixture, decoded as the client decodes API bodies (objects as \stdClass). */
    public static function fixture(string $name): \stdClass
    {
        $value = json_decode(self::fixtureText($name), false, 512, JSON_THROW_ON_ERROR);
        self::assertInstanceOf(\stdClass::class, $value);
        return $value;
    }

    /**
     * @param list<array<string, mixed>> $actions
     */
    protected function server(array $actions, int $port = 0): ScriptedServer
    {
        $server = ScriptedServer::start($actions, $port);
        $this->servers[] = $server;
        return $server;
    }

    /**
     * A client whose back-off waits are recorded in $this->sleeps instead of slept.
     *
     * @param array<string, mixed> $options
     */
    protected function client(string $baseUrl, array $options = []): PaygateClient
    {
        return new PaygateClient($options + [
            'api_key' => self::API_KEY,
            'base_url' => $baseUrl,
            'timeout' => 5,
            'sleep' => function (int $milliseconds): void {
                $this->sleeps[] = $milliseconds;
            },
        ]);
    }

    protected function tearDown(): void
    {
        foreach ($this->servers as $server) {
            $server->stop();
        }
        $this->servers = [];
        $this->sleeps = [];
    }
}
