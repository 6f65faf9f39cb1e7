<?php

declare(strict_types=1);

namespace Paygate\Service;

use Paygate\IdempotencyKey;
use Paygate\Resource\Refund;

/**
 * $client->refunds
 */
final class RefundService extends AbstractService
{
    /**
     * Refunds all (no amount_minor) or part of a succeeded intent. The key used is
     * $refund->getIdempotencyKey().
     *
     * @param array<string, mixed>|\stdClass $params payment_intent_id, amount_minor (int), metadata
     */
    public function create(array|\stdClass $params, ?string $idempotencyKey = null): Refund
    {
        $key = $idempotencyKey ?? IdempotencyKey::generate();
        return $this->resource(Refund::class, $this->sender->request('POST', '/v1/refunds', [], $params, $key));
    }

    public function retrieve(string $id): Refund
    {
        $path = '/v1/refunds/' . self::idSegment($id, 'refund id');
        return $this->resource(Refund::class, $this->sender->request('GET', $path));
    }
}
