<?php

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * Why the last payment attempt of a FAILED intent failed ($intent->lastPaymentError). Members the
 * API adds later are kept and readable by their API name.
 */
final class LastPaymentError extends ApiResource
{
    public const CODE_CARD_DECLINED = 'card_declined';
    public const CODE_GATEWAY_REJECTED = 'gateway_rejected';

    /** Stable, to branch on: card_declined (ask for another card) or gateway_rejected. */
    public readonly string $code;
    /** The gateway's own decline reason (e.g. insufficient_funds) when it gives one: log it, do not depend on it. */
    public readonly ?string $declineCode;
    /** A human-readable explanation, safe to show to the payer. */
    public readonly string $message;

    public static function fromJson(\stdClass $values): static
    {
        $error = new static($values);
        $error->code = Fields::string($values, 'code');
        $error->declineCode = Fields::optionalString($values, 'decline_code');
        $error->message = Fields::string($values, 'message');
        return $error;
    }
}
