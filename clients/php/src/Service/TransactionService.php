<?php

declare(strict_types=1);

namespace Paygate\Service;

use Paygate\Exception\ConfigurationException;
use Paygate\Resource\Transaction;

/**
 * $client->transactions
 */
final class TransactionService extends AbstractService
{
    private const FILTERS = ['status', 'type', 'from', 'to', 'limit'];

    /**
     * Every transaction matching the filters, newest first, fetched page by page as you iterate:
     * the generator follows next_cursor while has_more is true (the cursor is never yours to
     * handle). Nothing is requested until iteration starts; each page is one GET, retried like any.
     *
     * @param array<string, mixed>|\stdClass $params status, type, from, to (ISO 8601 or
     *        DateTimeInterface), limit (page size, 1 to 100)
     * @return \Generator<int, Transaction>
     */
    public function all(array|\stdClass $params = []): \Generator
    {
        $query = self::query((array) $params);
        return $this->pages(Transaction::class, '/v1/transactions', $query, 'transaction');
    }

    /**
     * @param array<mixed> $params
     * @return array<string, string|int>
     */
    private static function query(array $params): array
    {
        $query = [];
        foreach ($params as $name => $value) {
            if ($name === 'cursor') {
                throw new ConfigurationException('cursor is not a parameter: all() follows next_cursor itself');
            }
            if (!in_array($name, self::FILTERS, true)) {
                throw new ConfigurationException(
                    "Unknown transaction filter {$name}; the filters are " . implode(', ', self::FILTERS),
                );
            }
            if ($value === null) {
                continue;
            }
            if ($value instanceof \DateTimeInterface) {
                $value = \DateTimeImmutable::createFromInterface($value)
                    ->setTimezone(new \DateTimeZone('UTC'))
                    ->format('Y-m-d\TH:i:s.v\Z');
            }
            if (!is_string($value) && !is_int($value)) {
                throw new ConfigurationException("{$name} must be a string or an integer");
            }
            $query[(string) $name] = $value;
        }
        return $query;
    }
}
