<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * HTTP 400 validation_error (and 413 payload_too_large, 415 unsupported_media_type): the request is
 * malformed; getFieldErrors() names the fields.
 */
class InvalidRequestException extends ApiException
{
    /**
     * The problem's "errors" member, typed; entries without a string field and message are skipped.
     *
     * @return list<FieldError>
     */
    public function getFieldErrors(): array
    {
        $errors = $this->getProblem()->errors ?? null;
        $typed = [];
        foreach (is_array($errors) ? $errors : [] as $entry) {
            if ($entry instanceof \stdClass && is_string($entry->field ?? null) && is_string($entry->message ?? null)) {
                $typed[] = new FieldError($entry->field, $entry->message);
            }
        }
        return $typed;
    }
}
