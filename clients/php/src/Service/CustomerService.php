<?php

declare(strict_types=1);

namespace Paygate\Service;

use Paygate\IdempotencyKey;
use Paygate\Resource\Customer;

/**
 * $client->customers: the merchant's customers, whom saved payment methods belong to.
 */
final class CustomerService extends AbstractService
{
    /**
     * Creates a customer. The key used is $customer->getIdempotencyKey().
     *
     * @param array<string, mixed>|\stdClass $params email, name, metadata
     */
    public function create(array|\stdClass $params = [], ?string $idempotencyKey = null): Customer
    {
        $key = $idempotencyKey ?? IdempotencyKey::generate();
        return $this->resource(Customer::class, $this->sender->request('POST', '/v1/customers', [], $params, $key));
    }

    public function retrieve(string $id): Customer
    {
        $path = '/v1/customers/' . self::idSegment($id, 'customer id');
        return $this->resource(Customer::class, $this->sender->request('GET', $path));
    }

    /**
     * Changes email or name (null removes one) and merges metadata (a key set to "" is removed).
     *
     * @param array<string, mixed>|\stdClass $params
     */
    public function update(string $id, array|\stdClass $params): Customer
    {
        $path = '/v1/customers/' . self::idSegment($id, 'customer id');
        return $this->resource(Customer::class, $this->sender->request('POST', $path, [], $params));
    }

    /** Deletes the customer and detaches its saved methods; repeating it answers the same. */
    public function delete(string $id): Customer
    {
        $path = '/v1/customers/' . self::idSegment($id, 'customer id');
        return $this->resource(Customer::class, $this->sender->request('DELETE', $path));
    }

    /**
     * Every customer (email filters, any case), newest first, page by page as you iterate.
     *
     * @param array<string, mixed>|\stdClass $params email, limit (page size, 1 to 100)
     * @return \Generator<int, Customer>
     */
    public function all(array|\stdClass $params = []): \Generator
    {
        $query = self::listQuery((array) $params, ['email', 'limit'], 'customer');
        return $this->pages(Customer::class, '/v1/customers', $query, 'customer');
    }
}
