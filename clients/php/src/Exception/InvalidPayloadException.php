<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * Raised by webhook verification when a correctly signed body is not a well-formed event envelope.
 */
class InvalidPayloadException extends PaygateException
{
}
