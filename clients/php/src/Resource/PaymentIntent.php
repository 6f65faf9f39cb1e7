<?php

// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * A payment intent: one payment of an amount, from creation to its outcome. Members the API adds
 * later are kept and readable by their API name.
 */
final class PaymentIntent extends ApiResource
{
    public const STATUS_CREATED = 'CREATED';
    public const STATUS_REQUIRES_ACTION = 'REQUIRES_ACTION';
    public const STATUS_PROCESSING = 'PROCESSING';
    public const STATUS_REQUIRES_CAPTURE = 'REQUIRES_CAPTURE';
    public const STATUS_SUCCEEDED = 'SUCCEEDED';
    public const STATUS_FAILED = 'FAILED';
    public const STATUS_CANCELED = 'CANCELED';
    public const STATUS_EXPIRED = 'EXPIRED';

    public const CAPTURE_METHOD_AUTOMATIC = 'automatic';
    public const CAPTURE_METHOD_MANUAL = 'manual';

    public const CANCELLATION_REASON_DUPLICATE = 'duplicate';
    public const CANCELLATION_REASON_FRAUDULENT = 'fraudulent';
    public const CANCELLATION_REASON_REQUESTED_BY_CUSTOMER = 'requested_by_customer';
    public const CANCELLATION_REASON_ABANDONED = 'abandoned';
    public const CANCELLATION_REASON_REQUESTED = 'requested';
    public const CANCELLATION_REASON_AUTHORIZATION_EXPIRED = 'authorization_expired';

    /** The documented values of $setupFutureUsage (more may be added later). */
    public const SETUP_FUTURE_USAGES = [
        'off_session',
    ];

    public readonly string $id;
    /** An integer amount in minor units of the currency, never a float. */
    public readonly int $amountMinor;
    /** ISO 4217 code, upper case. */
    public readonly ?string $currency;
    public readonly ?string $status;
    /** The gateway account that takes the payment. */
    public readonly ?string $gatewayId;
    /** Where to send the payer when the status is REQUIRES_ACTION; null otherwise. */
    public readonly ?string $redirectUrl;
    /** Where the gateway sends the payer back after a redirect; null when none was given. */
    public readonly ?string $returnUrl;
    /** At most 50 keys; key at most 40 characters; value a string of at most 500 characters. */
    public readonly ?\stdClass $metadata;
    /** False for test data. */
    public readonly ?bool $livemode;
    /** How much of the amount has been refunded, in minor units. */
    public readonly ?int $amountRefundedMinor;
    /** Why the last payment attempt failed; null unless the status is FAILED. */
    public readonly ?LastPaymentError $lastPaymentError;
    /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
    public readonly ?int $version;
    /** ISO 8601 UTC instant. */
    public readonly ?string $createdAt;
    /** When a CREATED or REQUIRES_ACTION intent expires (ISO 8601 UTC instant). */
    public readonly ?string $expiresAt;
    /** Present when read with a secret key; hand it to the browser component, never log it. */
    public readonly ?string $clientSecret;
    /**
     * Automatic (the default): the payment is captured when it is authorised; manual: it is
     * authorised (REQUIRES_CAPTURE) and captured later by POST /v1/payment-intents/{id}/capture, or
     * voided by cancel.
     */
    public readonly ?string $captureMethod;
    /** What a capture may take now: the authorised amount while REQUIRES_CAPTURE, else 0. */
    public readonly ?int $amountCapturableMinor;
    /**
     * What was captured, in minor units: the amount of a SUCCEEDED intent (a manual one: what its
     * capture took).
     */
    public readonly ?int $amountCapturedMinor;
    /**
     * When the gateway drops the authorisation of a REQUIRES_CAPTURE intent (ISO 8601 UTC instant):
     * not captured by then, the intent is CANCELED with cancellation_reason authorization_expired;
     * null otherwise.
     */
    public readonly ?string $captureBefore;
    /**
     * Why a CANCELED intent was canceled: the merchant's reason, requested (a void of an
     * authorisation) or authorization_expired; null otherwise.
     */
    public readonly ?string $cancellationReason;
    /** The customer this payment belongs to, or null. */
    public readonly ?string $customerId;
    /**
     * Whether the payment method is saved for the customer when the charge succeeds (off_session)
     * or not (null).
     */
    public readonly ?string $setupFutureUsage;

    public static function fromJson(\stdClass $values): static
    {
        $object = new static($values);
        $object->id = Fields::string($values, 'id');
        $object->amountMinor = Fields::int($values, 'amount_minor');
        $object->currency = Fields::optionalString($values, 'currency');
        $object->status = Fields::optionalString($values, 'status');
        $object->gatewayId = Fields::optionalString($values, 'gateway_id');
        $object->redirectUrl = Fields::optionalString($values, 'redirect_url');
        $object->returnUrl = Fields::optionalString($values, 'return_url');
        $object->metadata = Fields::optionalObject($values, 'metadata');
        $object->livemode = Fields::optionalBool($values, 'livemode');
        $object->amountRefundedMinor = Fields::optionalInt($values, 'amount_refunded_minor');
        $object->lastPaymentError = LastPaymentError::fromOptional(
            Fields::optionalObject($values, 'last_payment_error'),
        );
        $object->version = Fields::optionalInt($values, 'version');
        $object->createdAt = Fields::optionalString($values, 'created_at');
        $object->expiresAt = Fields::optionalString($values, 'expires_at');
        $object->clientSecret = Fields::optionalString($values, 'client_secret');
        $object->captureMethod = Fields::optionalString($values, 'capture_method');
        $object->amountCapturableMinor = Fields::optionalInt($values, 'amount_capturable_minor');
        $object->amountCapturedMinor = Fields::optionalInt($values, 'amount_captured_minor');
        $object->captureBefore = Fields::optionalString($values, 'capture_before');
        $object->cancellationReason = Fields::optionalString($values, 'cancellation_reason');
        $object->customerId = Fields::optionalString($values, 'customer_id');
        $object->setupFutureUsage = Fields::optionalString($values, 'setup_future_usage');
        return $object;
    }
}
