<?php

// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * Why the last payment attempt of a FAILED intent failed. Members the API adds later are kept and
 * readable by their API name.
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
     * Why the card was declined, in one vocabulary for every gateway (insufficient_funds,
     * expired_card, incorrect_cvc, incorrect_number, do_not_honor, fraudulent, lost_or_stolen,
     * card_not_supported, currency_not_supported, processing_error, authentication_required,
     * generic_decline), or null when the gateway gave no reason; treat a value you do not know like
     * generic_decline.
     */
    public readonly ?string $declineCode;
    /**
     * The gateway's own code for the decline, unchanged (Stripe's decline_code, Adyen's
     * refusalReasonCode), or null.
     */
    public readonly ?string $gatewayCode;
    /** A human-readable explanation, safe to show to the payer. */
    public readonly string $message;

    public static function fromJson(\stdClass $values): static
    {
        $object = new static($values);
        $object->code = Fields::string($values, 'code');
        $object->declineCode = Fields::optionalString($values, 'decline_code');
        $object->gatewayCode = Fields::optionalString($values, 'gateway_code');
        $object->message = Fields::string($values, 'message');
        return $object;
    }

    /** The object of a member that may be null or absent. */
    public static function fromOptional(?\stdClass $values): ?static
    {
        return $values === null ? null : static::fromJson($values);
    }
}
