<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * HTTP 500 internal_error; a create may be repeated with the same Idempotency-Key.
 */
class InternalServerException extends ApiException
{
}
