<?php

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * A transaction (id prefix txn_): a PAYMENT or a REFUND, PENDING, APPROVED or DECLINED.
 */
final class Transaction extends ApiResource
{
    public readonly string $id;
    public readonly int $amountMinor;
    public readonly ?string $type;
    public readonly ?string $status;
    public readonly ?string $currency;
    public readonly ?string $paymentIntentId;
    public readonly ?string $refundId;
    public readonly ?string $gatewayId;
    public readonly ?bool $livemode;
    public readonly ?string $createdAt;
    public readonly ?string $updatedAt;

    public static function fromJson(\stdClass $values): static
    {
        $transaction = new static($values);
        $transaction->id = Fields::string($values, 'id');
        $transaction->amountMinor = Fields::int($values, 'amount_minor');
        $transaction->type = Fields::optionalString($values, 'type');
        $transaction->status = Fields::optionalString($values, 'status');
        $transaction->currency = Fields::optionalString($values, 'currency');
        $transaction->paymentIntentId = Fields::optionalString($values, 'payment_intent_id');
        $transaction->refundId = Fields::optionalString($values, 'refund_id');
        $transaction->gatewayId = Fields::optionalString($values, 'gateway_id');
        $transaction->livemode = Fields::optionalBool($values, 'livemode');
        $transaction->createdAt = Fields::optionalString($values, 'created_at');
        $transaction->updatedAt = Fields::optionalString($values, 'updated_at');
        return $transaction;
    }
}
