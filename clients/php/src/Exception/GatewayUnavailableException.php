<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * HTTP 503 gateway_unavailable: the external gateway could not be reached; nothing was charged.
 */
class GatewayUnavailableException extends ApiException
{
}
