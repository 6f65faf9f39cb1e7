<?php

// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * One ledger line: a PAYMENT, a REFUND, a DISPUTE or a DISPUTE_REVERSAL. Members the API adds later
 * are kept and readable by their API name.
 */
final class Transaction extends ApiResource
{
    public const TYPE_PAYMENT = 'PAYMENT';
    public const TYPE_REFUND = 'REFUND';
    public const TYPE_DISPUTE = 'DISPUTE';
    public const TYPE_DISPUTE_REVERSAL = 'DISPUTE_REVERSAL';

    public const STATUS_PENDING = 'PENDING';
    public const STATUS_APPROVED = 'APPROVED';
    public const STATUS_DECLINED = 'DECLINED';

    public readonly string $id;
    public readonly ?string $type;
    public readonly ?string $status;
    /** An integer amount in minor units of the currency, never a float. */
    public readonly int $amountMinor;
    /** ISO 4217 code, upper case. */
    public readonly ?string $currency;
    /** Identifier with prefix pi_. */
    public readonly ?string $paymentIntentId;
    /** Null except for REFUND. */
    public readonly ?string $refundId;
    public readonly ?string $gatewayId;
    /** False for test data. */
    public readonly ?bool $livemode;
    /** ISO 8601 UTC instant. */
    public readonly ?string $createdAt;
    /** ISO 8601 UTC instant. */
    public readonly ?string $updatedAt;

    public static function fromJson(\stdClass $values): static
    {
        $object = new static($values);
        $object->id = Fields::string($values, 'id');
        $object->type = Fields::optionalString($values, 'type');
        $object->status = Fields::optionalString($values, 'status');
        $object->amountMinor = Fields::int($values, 'amount_minor');
        $object->currency = Fields::optionalString($values, 'currency');
        $object->paymentIntentId = Fields::optionalString($values, 'payment_intent_id');
        $object->refundId = Fields::optionalString($values, 'refund_id');
        $object->gatewayId = Fields::optionalString($values, 'gateway_id');
        $object->livemode = Fields::optionalBool($values, 'livemode');
        $object->createdAt = Fields::optionalString($values, 'created_at');
        $object->updatedAt = Fields::optionalString($values, 'updated_at');
        return $object;
    }
}
