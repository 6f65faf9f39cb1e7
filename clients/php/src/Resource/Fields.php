<?php

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * Typed reads of decoded JSON members. A member of the wrong type throws, so an amount that is not
 * an integer never turns into a wrong int silently.
 *
 * @internal
 */
final class Fields
{
    public static function string(\stdClass $values, string $name): string
    {
        $value = $values->{$name} ?? null;
        if (!is_string($value)) {
            throw new \UnexpectedValueException("{$name} is not a string");
        }
        return $value;
    }

    public static function int(\stdClass $values, string $name): int
    {
        $value = $values->{$name} ?? null;
        if (!is_int($value)) {
            throw new \UnexpectedValueException("{$name} is not an integer");
        }
        return $value;
    }

    public static function optionalString(\stdClass $values, string $name): ?string
    {
        $value = $values->{$name} ?? null;
        if ($value !== null && !is_string($value)) {
            throw new \UnexpectedValueException("{$name} is not a string");
        }
        return $value;
    }

    public static function optionalInt(\stdClass $values, string $name): ?int
    {
        $value = $values->{$name} ?? null;
        if ($value !== null && !is_int($value)) {
            throw new \UnexpectedValueException("{$name} is not an integer");
        }
        return $value;
    }

    public static function optionalBool(\stdClass $values, string $name): ?bool
    {
        $value = $values->{$name} ?? null;
        if ($value !== null && !is_bool($value)) {
            throw new \UnexpectedValueException("{$name} is not a boolean");
        }
        return $value;
    }

    public static function optionalObject(\stdClass $values, string $name): ?\stdClass
    {
        $value = $values->{$name} ?? null;
        if ($value !== null && !$value instanceof \stdClass) {
            throw new \UnexpectedValueException("{$name} is not an object");
        }
        return $value;
    }
}
