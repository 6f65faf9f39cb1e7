<?php

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * A payment intent (id prefix pi_). Amounts are integers in minor units of the currency.
 */
final class PaymentIntent extends ApiResource
{
    public const STATUS_CREATED = 'CREATED';
    public const STATUS_REQUIRES_ACTION = 'REQUIRES_ACTION';
    public const STATUS_PROCESSING = 'PROCESSING';
    public const STATUS_SUCCEEDED = 'SUCCEEDED';
    public const STATUS_FAILED = 'FAILED';
    public const STATUS_CANCELED = 'CANCELED';
    public const STATUS_EXPIRED = 'EXPIRED';

    public readonly string $id;
    public readonly int $amountMinor;
    public readonly ?string $currency;
    public readonly ?string $status;
    public readonly ?string $gatewayId;
    /** Where to send the payer when the status is REQUIRES_ACTION; null otherwise. */
    public readonly ?string $redirectUrl;
    public readonly ?string $returnUrl;
    public readonly ?\stdClass $metadata;
    public readonly ?bool $livemode;
    public readonly ?string $createdAt;
    public readonly ?string $expiresAt;
    public readonly ?int $amountRefundedMinor;
    /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
    public readonly ?int $version;
    /** Why the last payment attempt failed; null unless the status is FAILED. */
    public readonly ?LastPaymentError $lastPaymentError;
    /** Present when read with a secret key; hand it to the browser component, never log it. */
    public readonly ?string $clientSecret;

    public static function fromJson(\stdClass $values): static
    {
        $intent = new static($values);
        $intent->id = Fields::string($values, 'id');
        $intent->amountMinor = Fields::int($values, 'amount_minor');
        $intent->currency = Fields::optionalString($values, 'currency');
        $intent->status = Fields::optionalString($values, 'status');
        $intent->gatewayId = Fields::optionalString($values, 'gateway_id');
        $intent->redirectUrl = Fields::optionalString($values, 'redirect_url');
        $intent->returnUrl = Fields::optionalString($values, 'return_url');
        $intent->metadata = Fields::optionalObject($values, 'metadata');
        $intent->livemode = Fields::optionalBool($values, 'livemode');
        $intent->createdAt = Fields::optionalString($values, 'created_at');
        $intent->expiresAt = Fields::optionalString($values, 'expires_at');
        $intent->amountRefundedMinor = Fields::optionalInt($values, 'amount_refunded_minor');
        $intent->version = Fields::optionalInt($values, 'version');
        $lastPaymentError = Fields::optionalObject($values, 'last_payment_error');
        $intent->lastPaymentError = $lastPaymentError === null ? null : LastPaymentError::fromJson($lastPaymentError);
        $intent->clientSecret = Fields::optionalString($values, 'client_secret');
        return $intent;
    }
}
