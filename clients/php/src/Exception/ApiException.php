<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * Raised when the service answered with an HTTP error. Decide on getErrorCode(), never on the
 * message. getCode() is PHP's own integer code: here the HTTP status.
 *
 * A known code always gets its family's subclass; this class itself is thrown only for a code this
 * client version does not know (or a response that was not a problem document: unexpected_response).
 */
class ApiException extends PaygateException
{
    public function __construct(
        private readonly string $errorCode,
        private readonly int $status,
        private readonly \stdClass $problem,
        private readonly ?string $requestId,
        private readonly ?string $idempotencyKey = null,
        private readonly ?string $rawBody = null,
    ) {
        parent::__construct(self::describe($errorCode, $status, $problem), $status);
    }

    /** The stable code of the problem document, e.g. "card_declined". */
    public function getErrorCode(): string
    {
        return $this->errorCode;
    }

    /** The HTTP status of the response. */
    public function getStatus(): int
    {
        return $this->status;
    }

    /** The full RFC 9457 problem document, exactly as received (integers stay integers). */
    public function getProblem(): \stdClass
    {
        return $this->problem;
    }

    /** X-Request-Id of the response (or the problem's request_id); quote it to support. */
    public function getRequestId(): ?string
    {
        return $this->requestId;
    }

    /** The Idempotency-Key sent with the request; null when none was sent. */
    public function getIdempotencyKey(): ?string
    {
        return $this->idempotencyKey;
    }

    /** The body as received when it was not a problem document; null otherwise. */
    public function getRawBody(): ?string
    {
        return $this->rawBody;
    }

    private static function describe(string $code, int $status, \stdClass $problem): string
    {
        $detail = isset($problem->detail) && is_string($problem->detail) && $problem->detail !== ''
            ? $problem->detail
            : (isset($problem->title) && is_string($problem->title) ? $problem->title : '');
        return $detail === '' ? "HTTP {$status} {$code}" : "{$detail} (HTTP {$status} {$code})";
    }
}
