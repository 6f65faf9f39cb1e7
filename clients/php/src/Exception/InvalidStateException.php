<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * HTTP 409 invalid_state_transition, e.g. cancelling an intent that already succeeded.
 */
class InvalidStateException extends ApiException
{
}
