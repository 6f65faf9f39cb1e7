<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * HTTP 429 rate_limited, once the GET retries are used up (a POST is never retried).
 */
class RateLimitException extends ApiException
{
}
