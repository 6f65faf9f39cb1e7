<?php

declare(strict_types=1);

namespace Paygate\Service;

use Paygate\Resource\Dispute;

/**
 * $client->disputes
 */
final class DisputeService extends AbstractService
{
    /** Reads a dispute (a chargeback the gateway reported against one of your payments). */
    public function retrieve(string $id): Dispute
    {
        $path = '/v1/disputes/' . self::idSegment($id, 'dispute id');
        return $this->resource(Dispute::class, $this->sender->request('GET', $path));
    }
}
