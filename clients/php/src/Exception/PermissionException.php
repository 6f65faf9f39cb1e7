<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * HTTP 403 insufficient_permissions: the key may not perform this operation.
 */
class PermissionException extends ApiException
{
}
