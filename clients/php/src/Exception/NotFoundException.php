<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * HTTP 404 resource_not_found.
 */
class NotFoundException extends ApiException
{
}
