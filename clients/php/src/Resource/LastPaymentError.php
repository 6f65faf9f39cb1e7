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

    /** The documented values of $declineCode (more may be added later). */
    public const DECLINE_CODES = [
        'insufficient_funds',
        'expired_card',
        'incorrect_cvc',
        'incorrect_number',
        'do_not_honor',
        'fraudulent',
        'lost_or_stolen',
        'card_not_supported',
        'currency_not_supported',
        'processing_error',
        'authentication_required',
        'generic_decline',
    ];

    /** Stable, to branch on: card_declined (ask for another card) or gateway_rejected. */
    public readonly string $code;
    /**
     * Why, in one vocabulary for every gateway (one of DECLINE_CODES, e.g. insufficient_funds), or
     * null when the gateway gave no reason. Treat a value this version does not know like generic_decline.
     */
    public readonly ?string $declineCode;
    /** The gateway's own code for the decline, unchanged (Stripe insufficient_funds, Adyen 12), or null. */
    public readonly ?string $gatewayCode;
    /** A human-readable explanation, safe to show to the payer. */
    public readonly string $message;

    public static function fromJson(\stdClass $values): static
    {
        $error = new static($values);
        $error->code = Fields::string($values, 'code');
        $error->declineCode = Fields::optionalString($values, 'decline_code');
        $error->gatewayCode = Fields::optionalString($values, 'gateway_code');
        $error->message = Fields::string($values, 'message');
        return $error;
    }
}
