<?php

declare(strict_types=1);

namespace Paygate\Http;

/**
 * Thrown by an HttpClient when an attempt produced no response. $notSent is true only when the
 * request provably never left this process (refused at connect, host not found): only then may a
 * POST be repeated.
 */
final class TransportException extends \RuntimeException
{
    public function __construct(string $message, public readonly bool $notSent, ?\Throwable $previous = null)
    {
        parent::__construct($message, 0, $previous);
    }
}
