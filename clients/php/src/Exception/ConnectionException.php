<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * Raised when no HTTP response arrived (refused, reset, DNS failure, time-out), after any retries.
 *
 * After a connection error on a create, repeat the same call with getIdempotencyKey(); after one on
 * confirm, retrieve the intent instead of confirming again.
 */
class ConnectionException extends PaygateException
{
    public function __construct(
        string $message,
        private readonly ?string $idempotencyKey,
        private readonly bool $mayHaveBeenSent,
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, 0, $previous);
    }

    /** The Idempotency-Key that was sent, so the same POST can be repeated safely; null when none. */
    public function getIdempotencyKey(): ?string
    {
        return $this->idempotencyKey;
    }

    /** True when the request may have reached the service (its delivery is unknown). */
    public function mayHaveBeenSent(): bool
    {
        return $this->mayHaveBeenSent;
    }
}
