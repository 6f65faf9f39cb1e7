<?php

// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * A customer of the merchant, in one mode. Members the API adds later are kept and readable by
 * their API name.
 */
final class Customer extends ApiResource
{
    public readonly string $id;
    public readonly ?string $email;
    public readonly ?string $name;
    /** At most 50 keys; key at most 40 characters; value a string of at most 500 characters. */
    public readonly ?\stdClass $metadata;
    /** False for test data. */
    public readonly ?bool $livemode;
    /** ISO 8601 UTC instant. */
    public readonly ?string $createdAt;
    /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
    public readonly ?int $version;
    /**
     * True once the customer is deleted (the answer to DELETE, and customer.deleted); false before.
     */
    public readonly ?bool $deleted;

    public static function fromJson(\stdClass $values): static
    {
        $object = new static($values);
        $object->id = Fields::string($values, 'id');
        $object->email = Fields::optionalString($values, 'email');
        $object->name = Fields::optionalString($values, 'name');
        $object->metadata = Fields::optionalObject($values, 'metadata');
        $object->livemode = Fields::optionalBool($values, 'livemode');
        $object->createdAt = Fields::optionalString($values, 'created_at');
        $object->version = Fields::optionalInt($values, 'version');
        $object->deleted = Fields::optionalBool($values, 'deleted');
        return $object;
    }
}
