<?php

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * What the HTTP response that carried a resource said about it.
 */
final class ResponseInfo
{
    public function __construct(
        public readonly int $statusCode,
        public readonly ?string $requestId,
        /** The Idempotency-Key sent (yours, or the UUID v4 the client made); null when none. */
        public readonly ?string $idempotencyKey,
        /** True when the service answered from its idempotency store (header Idempotent-Replayed). */
        public readonly bool $replayed,
    ) {
    }
}
