<?php

// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * A chargeback the gateway reported against a payment: open, then WON or LOST. Members the API adds
 * later are kept and readable by their API name.
 */
final class Dispute extends ApiResource
{
    public const REASON_FRAUDULENT = 'fraudulent';
    public const REASON_DUPLICATE = 'duplicate';
    public const REASON_PRODUCT_NOT_RECEIVED = 'product_not_received';
    public const REASON_PRODUCT_UNACCEPTABLE = 'product_unacceptable';
    public const REASON_SUBSCRIPTION_CANCELED = 'subscription_canceled';
    public const REASON_CREDIT_NOT_PROCESSED = 'credit_not_processed';
    public const REASON_UNRECOGNIZED = 'unrecognized';
    public const REASON_GENERAL = 'general';

    public const STATUS_NEEDS_RESPONSE = 'NEEDS_RESPONSE';
    public const STATUS_UNDER_REVIEW = 'UNDER_REVIEW';
    public const STATUS_WON = 'WON';
    public const STATUS_LOST = 'LOST';

    public readonly string $id;
    /** Identifier with prefix pi_. */
    public readonly ?string $paymentIntentId;
    /** An integer amount in minor units of the currency, never a float. */
    public readonly int $amountMinor;
    /** ISO 4217 code, upper case. */
    public readonly ?string $currency;
    public readonly ?string $reason;
    public readonly ?string $status;
    /** When the gateway must have the merchant’s evidence; null when it gave no date. */
    public readonly ?string $evidenceDueBy;
    public readonly ?string $gatewayId;
    /** False for test data. */
    public readonly ?bool $livemode;
    /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
    public readonly ?int $version;
    /** ISO 8601 UTC instant. */
    public readonly ?string $createdAt;
    /** ISO 8601 UTC instant. */
    public readonly ?string $updatedAt;

    public static function fromJson(\stdClass $values): static
    {
        $object = new static($values);
        $object->id = Fields::string($values, 'id');
        $object->paymentIntentId = Fields::optionalString($values, 'payment_intent_id');
        $object->amountMinor = Fields::int($values, 'amount_minor');
        $object->currency = Fields::optionalString($values, 'currency');
        $object->reason = Fields::optionalString($values, 'reason');
        $object->status = Fields::optionalString($values, 'status');
        $object->evidenceDueBy = Fields::optionalString($values, 'evidence_due_by');
        $object->gatewayId = Fields::optionalString($values, 'gateway_id');
        $object->livemode = Fields::optionalBool($values, 'livemode');
        $object->version = Fields::optionalInt($values, 'version');
        $object->createdAt = Fields::optionalString($values, 'created_at');
        $object->updatedAt = Fields::optionalString($values, 'updated_at');
        return $object;
    }
}
