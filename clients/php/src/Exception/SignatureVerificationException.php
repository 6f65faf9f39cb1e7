<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * Raised by webhook verification when the Service-Signature header is malformed, matches no secret,
 * or carries a timestamp more than the tolerance away from this clock. Answer the delivery with 400.
 */
class SignatureVerificationException extends PaygateException
{
    public const MALFORMED_HEADER = 'malformed_header';
    public const NO_MATCHING_SIGNATURE = 'no_matching_signature';
    public const TIMESTAMP_OUTSIDE_TOLERANCE = 'timestamp_outside_tolerance';

    public function __construct(private readonly string $reason, string $message)
    {
        parent::__construct($message);
    }

    /** One of the MALFORMED_HEADER, NO_MATCHING_SIGNATURE, TIMESTAMP_OUTSIDE_TOLERANCE constants. */
    public function getReason(): string
    {
        return $this->reason;
    }
}
