<?php

// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * The event types this client version knows; others are to be acknowledged and ignored.
 *
 * @internal
 */
final class EventTypes
{
    public const KNOWN = [
        'payment_intent.requires_action',
        'payment_intent.requires_capture',
        'payment_intent.succeeded',
        'payment_intent.failed',
        'payment_intent.canceled',
        'payment_intent.expired',
        'payment_intent.late_capture_refunded',
        'payment_intent.late_captured',
        'payment_intent.capture_reversed',
        'refund.succeeded',
        'refund.failed',
        'dispute.created',
        'dispute.updated',
        'dispute.closed',
        'customer.created',
        'customer.updated',
        'customer.deleted',
        'saved_payment_method.attached',
        'saved_payment_method.detached',
    ];
}
