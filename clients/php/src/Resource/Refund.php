<?php

// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * A refund of part or all of a SUCCEEDED payment intent. Members the API adds later are kept and
 * readable by their API name.
 */
final class Refund extends ApiResource
{
    public const STATUS_PENDING = 'PENDING';
    public const STATUS_SUCCEEDED = 'SUCCEEDED';
    public const STATUS_FAILED = 'FAILED';

    public readonly string $id;
    /** Identifier with prefix pi_. */
    public readonly ?string $paymentIntentId;
    /** An integer amount in minor units of the currency, never a float. */
    public readonly int $amountMinor;
    /** ISO 4217 code, upper case (the intent currency). */
    public readonly ?string $currency;
    public readonly ?string $status;
    /** At most 50 keys; key at most 40 characters; value a string of at most 500 characters. */
    public readonly ?\stdClass $metadata;
    /** False for test data. */
    public readonly ?bool $livemode;
    /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
    public readonly ?int $version;
    /** ISO 8601 UTC instant. */
    public readonly ?string $createdAt;

    public static function fromJson(\stdClass $values): static
    {
        $object = new static($values);
        $object->id = Fields::string($values, 'id');
        $object->paymentIntentId = Fields::optionalString($values, 'payment_intent_id');
        $object->amountMinor = Fields::int($values, 'amount_minor');
        $object->currency = Fields::optionalString($values, 'currency');
        $object->status = Fields::optionalString($values, 'status');
        $object->metadata = Fields::optionalObject($values, 'metadata');
        $object->livemode = Fields::optionalBool($values, 'livemode');
        $object->version = Fields::optionalInt($values, 'version');
        $object->createdAt = Fields::optionalString($values, 'created_at');
        return $object;
    }
}
