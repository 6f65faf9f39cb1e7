<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * HTTP 400 validation_error (and 413 payload_too_large, 415 unsupported_media_type): the request is
 * malformed; the problem's "errors" member names the fields.
 */
class InvalidRequestException extends ApiException
{
}
