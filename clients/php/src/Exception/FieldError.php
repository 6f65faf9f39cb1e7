<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * One field at fault in a 400 validation_error (InvalidRequestException::getFieldErrors()).
 */
final class FieldError
{
    public function __construct(
        /** The request field as a dotted path, e.g. "metadata.order_id" (or a header name). */
        public readonly string $field,
        public readonly string $message,
    ) {
    }
}
