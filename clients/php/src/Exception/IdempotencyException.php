<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * HTTP 409 idempotency_key_reuse (same key, other body) or idempotency_key_in_flight (wait, retry with the same key).
 */
class IdempotencyException extends ApiException
{
}
