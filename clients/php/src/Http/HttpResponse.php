<?php

declare(strict_types=1);

namespace Paygate\Http;

/**
 * A complete HTTP response: status, headers (names in lower case) and the body as received.
 */
final class HttpResponse
{
    /** @var array<string, string> */
    public readonly array $headers;

    /**
     * @param array<string, string> $headers
     */
    public function __construct(public readonly int $status, array $headers, public readonly string $body)
    {
        $this->headers = array_change_key_case($headers, CASE_LOWER);
    }

    public function header(string $name): ?string
    {
        return $this->headers[strtolower($name)] ?? null;
    }
}
