<?php

// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * A customer's payment method, saved at a gateway with the payer's consent. Members the API adds
 * later are kept and readable by their API name.
 */
final class SavedPaymentMethod extends ApiResource
{
    public const STATUS_ACTIVE = 'active';
    public const STATUS_DETACHED = 'detached';

    public readonly string $id;
    /** Identifier with prefix cus_. */
    public readonly ?string $customerId;
    /** The gateway account that keeps the method; only it can charge it. */
    public readonly ?string $gatewayId;
    /** Active: it can be charged; detached: removed, here and at the gateway, for good. */
    public readonly ?string $status;
    /** False for test data. */
    public readonly ?bool $livemode;
    /** ISO 8601 UTC instant. */
    public readonly ?string $createdAt;
    /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
    public readonly ?int $version;

    public static function fromJson(\stdClass $values): static
    {
        $object = new static($values);
        $object->id = Fields::string($values, 'id');
        $object->customerId = Fields::optionalString($values, 'customer_id');
        $object->gatewayId = Fields::optionalString($values, 'gateway_id');
        $object->status = Fields::optionalString($values, 'status');
        $object->livemode = Fields::optionalBool($values, 'livemode');
        $object->createdAt = Fields::optionalString($values, 'created_at');
        $object->version = Fields::optionalInt($values, 'version');
        return $object;
    }
}
