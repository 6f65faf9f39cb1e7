<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * The one place where a problem document's code picks the exception class.
 *
 * @internal
 */
final class ApiExceptionFactory
{
    /** @var array<string, class-string<ApiException>> */
    private const CLASSES = [
        'validation_error' => InvalidRequestException::class,
        'payload_too_large' => InvalidRequestException::class,
        'unsupported_media_type' => InvalidRequestException::class,
        'invalid_api_key' => AuthenticationException::class,
        'invalid_client_secret' => AuthenticationException::class,
        'invalid_webhook_signature' => AuthenticationException::class,
        'card_declined' => CardException::class,
        'gateway_rejected' => CardException::class,
        'insufficient_permissions' => PermissionException::class,
        'resource_not_found' => NotFoundException::class,
        'idempotency_key_reuse' => IdempotencyException::class,
        'idempotency_key_in_flight' => IdempotencyException::class,
        'invalid_state_transition' => InvalidStateException::class,
        'currency_not_supported' => AmountException::class,
        'amount_below_minimum' => AmountException::class,
        'amount_exceeds_refundable' => AmountException::class,
        'amount_exceeds_capturable' => AmountException::class,
        'rate_limited' => RateLimitException::class,
        'internal_error' => InternalServerException::class,
        'gateway_unavailable' => GatewayUnavailableException::class,
    ];

    public static function create(
        string $code,
        int $status,
        \stdClass $problem,
        ?string $requestId,
        ?string $idempotencyKey,
        ?string $rawBody = null,
    ): ApiException {
        $class = self::CLASSES[$code] ?? ApiException::class;
        return new $class($code, $status, $problem, $requestId, $idempotencyKey, $rawBody);
    }
}
