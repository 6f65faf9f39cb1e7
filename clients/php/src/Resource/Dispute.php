<?php

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * A dispute (id prefix dp_): a chargeback the gateway reported against one of your payments.
 * NEEDS_RESPONSE or UNDER_REVIEW while open, then WON or LOST.
 */
final class Dispute extends ApiResource
{
    public const STATUS_NEEDS_RESPONSE = 'NEEDS_RESPONSE';
    public const STATUS_UNDER_REVIEW = 'UNDER_REVIEW';
    public const STATUS_WON = 'WON';
    public const STATUS_LOST = 'LOST';

    public readonly string $id;
    public readonly int $amountMinor;
    public readonly ?string $paymentIntentId;
    public readonly ?string $currency;
    public readonly ?string $reason;
    public readonly ?string $status;
    /** When the gateway must have your evidence (ISO 8601), or null. */
    public readonly ?string $evidenceDueBy;
    public readonly ?string $gatewayId;
    public readonly ?bool $livemode;
    /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
    public readonly ?int $version;
    public readonly ?string $createdAt;
    public readonly ?string $updatedAt;

    public static function fromJson(\stdClass $values): static
    {
        $dispute = new static($values);
        $dispute->id = Fields::string($values, 'id');
        $dispute->amountMinor = Fields::int($values, 'amount_minor');
        $dispute->paymentIntentId = Fields::optionalString($values, 'payment_intent_id');
        $dispute->currency = Fields::optionalString($values, 'currency');
        $dispute->reason = Fields::optionalString($values, 'reason');
        $dispute->status = Fields::optionalString($values, 'status');
        $dispute->evidenceDueBy = Fields::optionalString($values, 'evidence_due_by');
        $dispute->gatewayId = Fields::optionalString($values, 'gateway_id');
        $dispute->livemode = Fields::optionalBool($values, 'livemode');
        $dispute->version = Fields::optionalInt($values, 'version');
        $dispute->createdAt = Fields::optionalString($values, 'created_at');
        $dispute->updatedAt = Fields::optionalString($values, 'updated_at');
        return $dispute;
    }
}
