<?php

declare(strict_types=1);

namespace Paygate\Tests\Unit;

use Paygate\Exception\ConfigurationException;
use Paygate\Exception\PaygateException;
use Paygate\PaygateClient;
use Paygate\Tests\Support\ScriptedServer;
use Paygate\Tests\Support\TestCase;

final class ConfigurationTest extends TestCase
{
    /**
     * @return array<string, array{array<string, mixed>, string}>
     */
    public static function invalidOptions(): array
    {
        $key = self::API_KEY;
        return [
            'publishable test key' => [['api_key' => 'pk_test_0123456789abcdefghijklmnopqrstuvwxyz'], 'publishable'],
            'publishable live key' => [['api_key' => 'pk_live_0123456789abcdefghijklmnopqrstuvwxyz'], 'publishable'],
            'missing key' => [[], 'api_key is required'],
            'not a secret key' => [['api_key' => 'Bearer abc'], 'secret key'],
            'key with a space' => [['api_key' => 'sk_test_abc def'], 'secret key'],
            'ftp address' => [['api_key' => $key, 'base_url' => 'ftp://example.com'], 'http or https'],
            'file address' => [['api_key' => $key, 'base_url' => 'file:///etc/passwd'], 'http or https, not file'],
            'no scheme' => [['api_key' => $key, 'base_url' => 'example.com'], 'not a valid http or https address'],
            'no host' => [['api_key' => $key, 'base_url' => 'http://'], 'not a valid http or https address'],
            'not a string' => [['api_key' => $key, 'base_url' => 8080], 'http or https'],
            'query in address' => [['api_key' => $key, 'base_url' => 'http://example.com/?a=1'], 'query'],
            'credentials in address' => [['api_key' => $key, 'base_url' => 'http://u:p@example.com'], 'credentials'],
            'zero time-out' => [['api_key' => $key, 'timeout' => 0], 'timeout'],
            'negative time-out' => [['api_key' => $key, 'timeout' => -1], 'timeout'],
            'infinite time-out' => [['api_key' => $key, 'timeout' => INF], 'timeout'],
            'string time-out' => [['api_key' => $key, 'timeout' => '30'], 'timeout'],
            'negative retries' => [['api_key' => $key, 'max_retries' => -1], 'max_retries'],
            'too many retries' => [['api_key' => $key, 'max_retries' => 11], 'max_retries'],
            'telemetry not a bool' => [['api_key' => $key, 'telemetry' => 'no'], 'telemetry'],
            'misspelt option' => [['apiKey' => $key], 'Unknown option'],
        ];
    }

    /**
     * @dataProvider invalidOptions
     * @param array<string, mixed> $options
     */
    public function testRefusesAnInvalidConfigurationLocally(array $options, string $message): void
    {
        try {
            new PaygateClient($options);
            self::fail('no exception');
        } catch (ConfigurationException $e) {
            self::assertInstanceOf(PaygateException::class, $e);
            self::assertStringContainsString($message, $e->getMessage());
            // A secret pasted into the wrong option is never echoed back.
            self::assertStringNotContainsString('0123456789abcdefghijklmnopqrstuvwxyz', $e->getMessage());
        }
    }

    public function testRemovesTrailingSlashesFromTheBaseAddress(): void
    {
        $server = $this->server([ScriptedServer::json(200, self::intentBody())]);
        $client = $this->client($server->baseUrl . '//');
        self::assertSame($server->baseUrl, $client->getBaseUrl());
        $client->paymentIntents->retrieve('pi_1');
        self::assertSame('/v1/payment-intents/pi_1', $server->requests()[0]['target']);
    }

    public function testDefaultsMatchTheSpecification(): void
    {
        $client = new PaygateClient(['api_key' => self::API_KEY]);
        self::assertSame('http://localhost:8080', $client->getBaseUrl());
        self::assertSame('paygate-php/1.0.0 php/' . PHP_VERSION, $client->getUserAgent());
    }

    public function testTelemetryOffSendsTheClientVersionOnly(): void
    {
        $server = $this->server([ScriptedServer::json(200, self::intentBody())]);
        $client = $this->client($server->baseUrl, ['telemetry' => false]);
        $client->paymentIntents->retrieve('pi_1');
        self::assertSame('paygate-php/1.0.0', $server->requests()[0]['headers']['user-agent']);
        self::assertSame('paygate-php/1.0.0', $client->getUserAgent());
    }
}
