<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * HTTP 401 invalid_api_key, invalid_client_secret or invalid_webhook_signature.
 */
class AuthenticationException extends ApiException
{
}
