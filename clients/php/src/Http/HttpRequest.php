<?php

declare(strict_types=1);

namespace Paygate\Http;

/**
 * One HTTP attempt as the client wants it sent; what an HttpClient receives.
 */
final class HttpRequest
{
    /**
     * @param array<string, string> $headers header name => value
     */
    public function __construct(
        public readonly string $method,
        public readonly string $url,
        public readonly array $headers,
        public readonly ?string $body,
        public readonly float $timeoutSeconds,
    ) {
    }

    public function header(string $name): ?string
    {
        foreach ($this->headers as $key => $value) {
            if (strcasecmp($key, $name) === 0) {
                return $value;
            }
        }
        return null;
    }
}
