<?php

declare(strict_types=1);

namespace Paygate;

use Paygate\Exception\ConfigurationException;
use Paygate\Http\CurlHttpClient;
use Paygate\Http\HttpClient;

/**
 * The client's options, each checked locally so a misconfiguration fails at construction and
 * never on the wire.
 *
 * @internal
 */
final class ClientConfig
{
    public const DEFAULT_BASE_URL = 'http://localhost:8080';
    public const DEFAULT_TIMEOUT_SECONDS = 30;
    public const DEFAULT_MAX_RETRIES = 2;
    private const MAX_MAX_RETRIES = 10;
    private const OPTIONS = ['api_key', 'base_url', 'timeout', 'max_retries', 'telemetry', 'http_client', 'sleep',
        'random'];

    public readonly string $apiKey;
    public readonly string $baseUrl;
    public readonly float $timeoutSeconds;
    public readonly int $maxRetries;
    public readonly bool $telemetry;
    public readonly HttpClient $httpClient;
    /** @var \Closure(int): void */
    public readonly \Closure $sleep;
    /** @var \Closure(): float */
    public readonly \Closure $random;
    public readonly string $userAgent;

    /**
     * @param array<string, mixed> $options
     */
    public function __construct(array $options)
    {
        $unknown = array_diff(array_keys($options), self::OPTIONS);
        if ($unknown !== []) {
            throw new ConfigurationException(sprintf(
                'Unknown option(s) %s; the options are %s',
                implode(', ', $unknown),
                implode(', ', self::OPTIONS),
            ));
        }
        $this->apiKey = self::checkApiKey($options['api_key'] ?? null);
        $this->baseUrl = self::checkBaseUrl($options['base_url'] ?? self::DEFAULT_BASE_URL);
        $this->timeoutSeconds = self::checkTimeout($options['timeout'] ?? self::DEFAULT_TIMEOUT_SECONDS);
        $this->maxRetries = self::checkMaxRetries($options['max_retries'] ?? self::DEFAULT_MAX_RETRIES);
        $telemetry = $options['telemetry'] ?? true;
        if (!is_bool($telemetry)) {
            throw new ConfigurationException('telemetry must be a boolean');
        }
        $this->telemetry = $telemetry;
        $httpClient = $options['http_client'] ?? new CurlHttpClient();
        if (!$httpClient instanceof HttpClient) {
            throw new ConfigurationException('http_client must implement Paygate\Http\HttpClient');
        }
        $this->httpClient = $httpClient;
        $this->sleep = \Closure::fromCallable(self::checkCallable('sleep', $options['sleep'] ?? null)
            ?? static function (int $milliseconds): void {
                usleep($milliseconds * 1000);
            });
        $this->random = \Closure::fromCallable(self::checkCallable('random', $options['random'] ?? null)
            // 53 random bits: every value exact as a float, and strictly below 1.
            ?? static fn (): float => random_int(0, (1 << 53) - 1) / (1 << 53));
        $this->userAgent = $this->telemetry
            ? sprintf('paygate-php/%s php/%s', PaygateClient::VERSION, PHP_VERSION)
            : sprintf('paygate-php/%s', PaygateClient::VERSION);
    }

    private static function checkApiKey(mixed $apiKey): string
    {
        if (!is_string($apiKey) || $apiKey === '') {
            throw new ConfigurationException('api_key is required: a secret key starting with sk_test_ or sk_live_');
        }
        if (str_starts_with($apiKey, 'pk_')) {
            throw new ConfigurationException(
                'api_key is a publishable key (pk_...); server clients need a secret key (sk_test_... or sk_live_...)',
            );
        }
        if (preg_match('/^sk_(test|live)_[0-9A-Za-z]+$/D', $apiKey) !== 1) {
            // The key itself is not echoed: it may be a real secret pasted into the wrong place.
            throw new ConfigurationException(
                'api_key must be a secret key: sk_test_ or sk_live_ and base62 characters',
            );
        }
        return $apiKey;
    }

    private static function checkBaseUrl(mixed $baseUrl): string
    {
        if (!is_string($baseUrl) || preg_match('/^[\x21-\x7e]+$/D', $baseUrl) !== 1) {
            throw new ConfigurationException('base_url must be an http or https address without spaces');
        }
        $parts = parse_url($baseUrl);
        $scheme = strtolower((string) ($parts['scheme'] ?? ''));
        if ($parts !== false && $scheme !== '' && $scheme !== 'http' && $scheme !== 'https') {
            throw new ConfigurationException("base_url must use http or https, not {$scheme}");
        }
        if ($parts === false || $scheme === '' || ($parts['host'] ?? '') === '') {
            throw new ConfigurationException(
                'base_url is not a valid http or https address: ' . json_encode($baseUrl, JSON_UNESCAPED_SLASHES),
            );
        }
        if (isset($parts['query']) || isset($parts['fragment']) || isset($parts['user']) || isset($parts['pass'])) {
            throw new ConfigurationException('base_url must not carry a query, a fragment or credentials');
        }
        return rtrim($baseUrl, '/');
    }

    private static function checkTimeout(mixed $timeout): float
    {
        if ((!is_int($timeout) && !is_float($timeout)) || !is_finite((float) $timeout) || $timeout <= 0) {
            throw new ConfigurationException('timeout must be a positive number of seconds (default 30)');
        }
        return (float) $timeout;
    }

    private static function checkMaxRetries(mixed $maxRetries): int
    {
        if (!is_int($maxRetries) || $maxRetries < 0 || $maxRetries > self::MAX_MAX_RETRIES) {
            throw new ConfigurationException('max_retries must be an integer from 0 to ' . self::MAX_MAX_RETRIES);
        }
        return $maxRetries;
    }

    private static function checkCallable(string $name, mixed $value): ?callable
    {
        if ($value !== null && !is_callable($value)) {
            throw new ConfigurationException("{$name} must be callable");
        }
        return $value;
    }
}
