<?php

declare(strict_types=1);

namespace Paygate;

/**
 * Idempotency keys the client makes when the caller gives none: UUID version 4 from random_bytes
 * (the operating system's secure generator), version and variant bits set per RFC 9562.
 */
final class IdempotencyKey
{
    public static function generate(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40); // version 4
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80); // variant 10xx
        $hex = bin2hex($bytes);
        return sprintf(
            '%s-%s-%s-%s-%s',
            substr($hex, 0, 8),
            substr($hex, 8, 4),
            substr($hex, 12, 4),
            substr($hex, 16, 4),
            substr($hex, 20, 12),
        );
    }
}
