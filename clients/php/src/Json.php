<?php

declare(strict_types=1);

namespace Paygate;

/**
 * JSON in and out. Objects decode to \stdClass (so {} and [] stay distinct); an integer too large
 * for PHP's int decodes to a string, never to a float, so money is never rounded.
 *
 * @internal
 */
final class Json
{
    /**
     * @throws \JsonException
     */
    public static function decode(string $text): mixed
    {
        return json_decode($text, false, 512, JSON_THROW_ON_ERROR | JSON_BIGINT_AS_STRING);
    }

    /**
     * @throws \JsonException
     */
    public static function encode(mixed $value): string
    {
        return json_encode(
            $value,
            JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION,
        );
    }
}
