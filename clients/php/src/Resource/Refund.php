<?php

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * A refund (id prefix re_): PENDING until the gateway settles it, then SUCCEEDED or FAILED.
 */
final class Refund extends ApiResource
{
    public const STATUS_PENDING = 'PENDING';
    public const STATUS_SUCCEEDED = 'SUCCEEDED';
    public const STATUS_FAILED = 'FAILED';

    public readonly string $id;
    public readonly int $amountMinor;
    public readonly ?string $paymentIntentId;
    public readonly ?string $currency;
    public readonly ?string $status;
    public readonly ?\stdClass $metadata;
    public readonly ?bool $livemode;
    /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
    public readonly ?int $version;
    public readonly ?string $createdAt;

    public static function fromJson(\stdClass $values): static
    {
        $refund = new static($values);
        $refund->id = Fields::string($values, 'id');
        $refund->amountMinor = Fields::int($values, 'amount_minor');
        $refund->paymentIntentId = Fields::optionalString($values, 'payment_intent_id');
        $refund->currency = Fields::optionalString($values, 'currency');
        $refund->status = Fields::optionalString($values, 'status');
        $refund->metadata = Fields::optionalObject($values, 'metadata');
        $refund->livemode = Fields::optionalBool($values, 'livemode');
        $refund->version = Fields::optionalInt($values, 'version');
        $refund->createdAt = Fields::optionalString($values, 'created_at');
        return $refund;
    }
}
