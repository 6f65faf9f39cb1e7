<?php

declare(strict_types=1);

namespace Paygate;

use Paygate\Exception\ApiException;
use Paygate\Exception\ApiExceptionFactory;
use Paygate\Exception\ConfigurationException;
use Paygate\Exception\ConnectionException;
use Paygate\Http\HttpRequest;
use Paygate\Http\HttpResponse;
use Paygate\Http\TransportException;
use Paygate\Resource\ResponseInfo;

/**
 * The one place that talks HTTP: headers, time-out, retries and error mapping. Nothing else in the
 * client decides whether a request is repeated.
 *
 * @internal
 */
final class RequestSender
{
    public const BACKOFF_BASE_MS = 500;
    public const BACKOFF_CAP_MS = 8000;
    public const RETRY_AFTER_CAP_MS = 60000;

    public function __construct(private readonly ClientConfig $config)
    {
    }

    /**
     * Full-jitter exponential back-off: a uniform wait in [0, min(cap, base * 2^retryIndex)).
     * $retryIndex is 0 before the first retry.
     */
    public static function backoffMs(int $retryIndex, float $random): int
    {
        $ceiling = min(self::BACKOFF_CAP_MS, self::BACKOFF_BASE_MS * 2 ** min($retryIndex, 30));
        return (int) floor(max(0.0, min($random, 1.0)) * $ceiling);
    }

    /**
     * Reads Retry-After (delta seconds or an HTTP date), capped at 60 s; null when absent or unreadable.
     */
    public static function retryAfterMs(?string $value, int $nowUnix): ?int
    {
        if ($value === null) {
            return null;
        }
        $value = trim($value);
        if (preg_match('/^\d{1,10}$/D', $value) === 1) {
            $ms = (int) $value * 1000;
        } elseif (preg_match('/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/D', $value) === 1) {
            $date = \DateTimeImmutable::createFromFormat('D, d M Y H:i:s \G\M\T', $value, new \DateTimeZone('UTC'));
            if ($date === false) {
                return null;
            }
            $ms = max(0, $date->getTimestamp() - $nowUnix) * 1000;
        } else {
            return null;
        }
        return min(self::RETRY_AFTER_CAP_MS, $ms);
    }

    /**
     * @param array<string, string|int> $query
     * @param array<mixed>|\stdClass|null $body
     * @return array{0: \stdClass, 1: ResponseInfo}
     */
    public function request(
        string $method,
        string $path,
        array $query = [],
        array|\stdClass|null $body = null,
        ?string $idempotencyKey = null,
    ): array {
        $request = $this->buildRequest($method, $path, $query, $body, $idempotencyKey);
        for ($retryIndex = 0;; $retryIndex++) {
            $canRetry = $retryIndex < $this->config->maxRetries;
            try {
                $response = $this->config->httpClient->send($request);
            } catch (TransportException $failure) {
                // A GET can always be repeated; a POST only when it provably never left this process.
                // GET and DELETE are idempotent: retried; a POST only when nothing was sent.
                if ($canRetry && ($method !== 'POST' || $failure->notSent)) {
                    ($this->config->sleep)(self::backoffMs($retryIndex, ($this->config->random)()));
                    continue;
                }
                throw new ConnectionException(
                    sprintf(
                        '%s %s failed without a response after %d attempt(s): %s',
                        $method,
                        $path,
                        $retryIndex + 1,
                        $failure->getMessage(),
                    ),
                    $idempotencyKey,
                    !$failure->notSent,
                    $failure,
                );
            }
            if ($response->status >= 200 && $response->status < 300) {
                return [$this->parseSuccess($response, $idempotencyKey), $this->info($response, $idempotencyKey)];
            }
            $error = $this->toApiException($response, $idempotencyKey);
            // A POST that got any response is never repeated: the service may have acted on it.
            if ($canRetry && $method !== 'POST' && ($response->status === 429 || $response->status >= 500)) {
                ($this->config->sleep)($this->retryWaitMs($response, $error, $retryIndex));
                continue;
            }
            throw $error;
        }
    }

    /**
     * @param array<string, string|int> $query
     * @param array<mixed>|\stdClass|null $body
     */
    private function buildRequest(
        string $method,
        string $path,
        array $query,
        array|\stdClass|null $body,
        ?string $idempotencyKey,
    ): HttpRequest {
        $headers = [
            'X-API-Key' => $this->config->apiKey,
            'Accept' => 'application/json',
            'User-Agent' => $this->config->userAgent,
        ];
        if ($idempotencyKey !== null) {
            // Checked here: an invalid header value would otherwise surface as a network failure.
            if (preg_match('/^[\x21-\x7e]{1,255}$/D', $idempotencyKey) !== 1) {
                throw new ConfigurationException('idempotency_key must be 1 to 255 visible ASCII characters');
            }
            $headers['Idempotency-Key'] = $idempotencyKey;
        }
        $encodedBody = null;
        if ($method === 'POST') {
            $headers['Content-Type'] = 'application/json';
            // An empty PHP array would encode as [], but every body of the API is a JSON object.
            $encodedBody = ($body === null || $body === []) ? '{}' : self::encodeBody($body);
        }
        $url = $this->config->baseUrl . $path;
        if ($query !== []) {
            $url .= '?' . http_build_query($query, '', '&', PHP_QUERY_RFC3986);
        }
        return new HttpRequest($method, $url, $headers, $encodedBody, $this->config->timeoutSeconds);
    }

    /**
     * @param array<mixed>|\stdClass $body
     */
    private static function encodeBody(array|\stdClass $body): string
    {
        if (is_array($body) && array_is_list($body)) {
            throw new ConfigurationException('params must be an associative array or an object, not a list');
        }
        try {
            return Json::encode($body);
        } catch (\JsonException $e) {
            throw new ConfigurationException('params cannot be encoded as JSON: ' . $e->getMessage(), 0, $e);
        }
    }

    private function retryWaitMs(HttpResponse $response, ApiException $error, int $retryIndex): int
    {
        $honoursRetryAfter = ($response->status === 429 && $error->getErrorCode() === 'rate_limited')
            || ($response->status === 503 && $error->getErrorCode() === 'gateway_unavailable');
        if ($honoursRetryAfter) {
            $retryAfter = self::retryAfterMs($response->header('retry-after'), time());
            if ($retryAfter !== null) {
                return $retryAfter;
            }
        }
        return self::backoffMs($retryIndex, ($this->config->random)());
    }

    private function info(HttpResponse $response, ?string $idempotencyKey): ResponseInfo
    {
        return new ResponseInfo(
            $response->status,
            $response->header('x-request-id'),
            $idempotencyKey,
            $response->header('idempotent-replayed') === 'true',
        );
    }

    private function parseSuccess(HttpResponse $response, ?string $idempotencyKey): \stdClass
    {
        try {
            $parsed = Json::decode($response->body);
        } catch (\JsonException) {
            $parsed = null;
        }
        // Every success of the API is a JSON object; anything else came from something that is not Paygate.
        if (!$parsed instanceof \stdClass) {
            throw $this->unexpected($response, $idempotencyKey, 'The response body was not a JSON object');
        }
        return $parsed;
    }

    /**
     * @internal used by the services when a success body is not the resource it should be
     */
    public function unexpected(
        HttpResponse|ResponseInfo $response,
        ?string $idempotencyKey,
        string $detail,
    ): ApiException {
        $status = $response instanceof HttpResponse ? $response->status : $response->statusCode;
        $requestId = $response instanceof HttpResponse ? $response->header('x-request-id') : $response->requestId;
        $problem = (object) [
            'type' => 'about:blank',
            'title' => 'Unexpected response',
            'status' => $status,
            'detail' => $detail,
            'code' => 'unexpected_response',
        ];
        $rawBody = $response instanceof HttpResponse ? $response->body : null;
        $code = 'unexpected_response';
        return ApiExceptionFactory::create($code, $status, $problem, $requestId, $idempotencyKey, $rawBody);
    }

    private function toApiException(HttpResponse $response, ?string $idempotencyKey): ApiException
    {
        try {
            $problem = Json::decode($response->body);
        } catch (\JsonException) {
            $problem = null;
        }
        if (!$problem instanceof \stdClass || !isset($problem->code) || !is_string($problem->code)) {
            return $this->unexpected(
                $response,
                $idempotencyKey,
                "HTTP {$response->status} without a problem document",
            );
        }
        $requestId = $response->header('x-request-id')
            ?? (isset($problem->request_id) && is_string($problem->request_id) ? $problem->request_id : null);
        return ApiExceptionFactory::create($problem->code, $response->status, $problem, $requestId, $idempotencyKey);
    }
}
