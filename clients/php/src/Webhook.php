<?php

declare(strict_types=1);

namespace Paygate;

use Paygate\Exception\ConfigurationException;
use Paygate\Exception\InvalidPayloadException;
use Paygate\Exception\SignatureVerificationException;
use Paygate\Resource\Event;

/**
 * Verification of webhook deliveries (header Service-Signature: t=<unix>,v1=<hex>[,v1=<hex>]).
 */
final class Webhook
{
    public const DEFAULT_TOLERANCE_SECONDS = 300;
    /** Rotation needs two signatures; more than this is refused so the work stays bounded. */
    private const MAX_SIGNATURES = 16;

    /**
     * Verifies a delivery against the raw body and returns the event; never returns a silent false.
     *
     * Every v1 is compared with every secret in constant time (hash_equals), without stopping at the
     * first match; the timestamp must be within $tolerance seconds of this clock in either direction.
     *
     *     $payload = file_get_contents('php://input'); // the raw bytes, before any parser
     *     $event = Webhook::constructEvent($payload, $_SERVER['HTTP_SERVICE_SIGNATURE'] ?? '', [$secret]);
     *
     * @param string|string[] $secrets the endpoint's whsec_ secret, or every secret in use (two during a rotation)
     * @param int|null $now this receiver's clock in Unix seconds; default time()
     * @throws SignatureVerificationException malformed header, no matching v1, or a stale timestamp
     * @throws InvalidPayloadException a correctly signed body that is not an event envelope
     * @throws ConfigurationException no secrets, or a tolerance that is not positive
     */
    public static function constructEvent(
        string $payload,
        string $header,
        string|array $secrets,
        int $tolerance = self::DEFAULT_TOLERANCE_SECONDS,
        ?int $now = null,
    ): Event {
        // Zero would reject every delivery and tempt a caller to switch verification off.
        if ($tolerance <= 0) {
            throw new ConfigurationException('tolerance must be a positive number of seconds (default 300)');
        }
        $keys = self::checkSecrets(is_array($secrets) ? $secrets : [$secrets]);
        [$timestamp, $signatures] = self::parseHeader($header);

        $placeholder = str_repeat("\0", 32);
        $matches = 0;
        // Every secret against every candidate, no early exit, so timing tells nothing about which matched.
        foreach ($keys as $key) {
            $expected = hash_hmac('sha256', $timestamp . '.' . $payload, $key, true);
            foreach ($signatures as $signature) {
                $wellFormed = preg_match('/^[0-9a-f]{64}$/D', $signature) === 1;
                $candidate = $wellFormed ? (string) hex2bin($signature) : $placeholder;
                $equal = hash_equals($expected, $candidate);
                $matches += ($equal && $wellFormed) ? 1 : 0;
            }
        }
        if ($matches === 0) {
            throw new SignatureVerificationException(
                SignatureVerificationException::NO_MATCHING_SIGNATURE,
                'No v1 signature matches: check the endpoint secret, and that the body is the raw bytes'
                . ' (php://input), not re-encoded JSON',
            );
        }

        $now ??= time();
        if (abs($now - (int) $timestamp) > $tolerance) {
            throw new SignatureVerificationException(
                SignatureVerificationException::TIMESTAMP_OUTSIDE_TOLERANCE,
                "The signature timestamp is more than {$tolerance} s away from this clock"
                . ' (a replay, or an unsynchronised clock)',
            );
        }
        return self::parseEnvelope($payload);
    }

    /**
     * Builds a valid Service-Signature header, for tests of your own webhook handler.
     *
     * @param string|string[] $secret one secret, or two to imitate a rotation
     * @param int|null $timestamp Unix seconds; default now
     */
    public static function generateTestHeader(string $payload, string|array $secret, ?int $timestamp = null): string
    {
        $keys = self::checkSecrets(is_array($secret) ? $secret : [$secret]);
        $timestamp ??= time();
        if ($timestamp < 0) {
            throw new ConfigurationException('timestamp must be non-negative Unix seconds');
        }
        $elements = ["t={$timestamp}"];
        foreach ($keys as $key) {
            $elements[] = 'v1=' . hash_hmac('sha256', $timestamp . '.' . $payload, $key);
        }
        return implode(',', $elements);
    }

    /**
     * @param array<mixed> $secrets
     * @return string[]
     */
    private static function checkSecrets(array $secrets): array
    {
        $keys = [];
        foreach ($secrets as $secret) {
            if (!is_string($secret) || $secret === '') {
                $keys = [];
                break;
            }
            $keys[] = $secret;
        }
        if ($keys === []) {
            throw new ConfigurationException('webhook secrets must be one or more non-empty strings (whsec_...)');
        }
        return $keys;
    }

    /**
     * @return array{0: string, 1: string[]} t exactly as written, and the v1 values
     */
    private static function parseHeader(string $header): array
    {
        $malformed = static fn (string $why): SignatureVerificationException => new SignatureVerificationException(
            SignatureVerificationException::MALFORMED_HEADER,
            "Service-Signature {$why}",
        );
        if (trim($header) === '') {
            throw $malformed('header is missing');
        }
        $timestamp = null;
        $signatures = [];
        foreach (explode(',', $header) as $element) {
            $separator = strpos($element, '=');
            if ($separator === false || $separator === 0) {
                throw $malformed('has an element that is not key=value');
            }
            $key = trim(substr($element, 0, $separator));
            $value = trim(substr($element, $separator + 1));
            if ($key === 't') {
                if ($timestamp !== null) {
                    throw $malformed('has more than one t');
                }
                if (preg_match('/^\d{1,15}$/D', $value) !== 1) {
                    throw $malformed('has a t that is not Unix seconds');
                }
                $timestamp = $value;
            } elseif ($key === 'v1') {
                $signatures[] = $value;
            }
            // Other schemes (a future v2) are ignored, so a newer service does not break this client.
        }
        if ($timestamp === null) {
            throw $malformed('has no t');
        }
        if ($signatures === []) {
            throw $malformed('has no v1 signature');
        }
        if (count($signatures) > self::MAX_SIGNATURES) {
            throw $malformed('has more than ' . self::MAX_SIGNATURES . ' signatures');
        }
        return [$timestamp, $signatures];
    }

    private static function parseEnvelope(string $payload): Event
    {
        try {
            $parsed = Json::decode($payload);
        } catch (\JsonException) {
            throw new InvalidPayloadException('The signed body is not valid UTF-8 JSON');
        }
        $problem = self::envelopeProblem($parsed);
        if ($problem !== null) {
            throw new InvalidPayloadException("The signed body is not an event envelope: {$problem}");
        }
        assert($parsed instanceof \stdClass);
        return Event::fromJson($parsed);
    }

    private static function envelopeProblem(mixed $value): ?string
    {
        if (!$value instanceof \stdClass) {
            return 'not a JSON object';
        }
        if (!is_string($value->id ?? null) || preg_match('/^evt_[0-9A-Za-z]{24}$/D', $value->id) !== 1) {
            return 'id is not evt_ and 24 base62 characters';
        }
        if (($value->object ?? null) !== 'event') {
            return 'object is not "event"';
        }
        if (!is_string($value->type ?? null) || $value->type === '') {
            return 'type is not a string';
        }
        if (!is_string($value->created ?? null)) {
            return 'created is not a string';
        }
        if (!is_bool($value->livemode ?? null)) {
            return 'livemode is not a boolean';
        }
        if (!($value->data ?? null) instanceof \stdClass || !($value->data->object ?? null) instanceof \stdClass) {
            return 'data.object is not an object';
        }
        return null;
    }
}
