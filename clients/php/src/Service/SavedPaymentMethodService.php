<?php

declare(strict_types=1);

namespace Paygate\Service;

use Paygate\Resource\SavedPaymentMethod;

/**
 * $client->savedPaymentMethods: a customer's saved payment methods (only the gateway keeps the card).
 */
final class SavedPaymentMethodService extends AbstractService
{
    /**
     * Every saved method of the customer, newest first, active and detached, page by page.
     *
     * @param array<string, mixed>|\stdClass $params limit (page size, 1 to 100)
     * @return \Generator<int, SavedPaymentMethod>
     */
    public function all(string $customerId, array|\stdClass $params = []): \Generator
    {
        $path = '/v1/customers/' . self::idSegment($customerId, 'customer id') . '/saved-payment-methods';
        $query = self::listQuery((array) $params, ['limit'], 'saved payment method');
        return $this->pages(SavedPaymentMethod::class, $path, $query, 'saved payment method');
    }

    /** Detaches the method here and at its gateway, for good; repeating it answers the same. */
    public function detach(string $id): SavedPaymentMethod
    {
        $path = '/v1/saved-payment-methods/' . self::idSegment($id, 'saved payment method id') . '/detach';
        return $this->resource(SavedPaymentMethod::class, $this->sender->request('POST', $path));
    }
}
