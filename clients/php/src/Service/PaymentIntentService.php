<?php

declare(strict_types=1);

namespace Paygate\Service;

use Paygate\IdempotencyKey;
use Paygate\Resource\PaymentIntent;

/**
 * $client->paymentIntents
 */
final class PaymentIntentService extends AbstractService
{
    /**
     * Creates a payment intent. Persist your Idempotency-Key with the order before calling, and on a
     * ConnectionException call again with the same key. Without one, a UUID v4 is made; either way
     * it is $intent->getIdempotencyKey().
     *
     * @param array<string, mixed>|\stdClass $params amount_minor (int), currency, gateway_id, metadata, return_url
     */
    public function create(array|\stdClass $params, ?string $idempotencyKey = null): PaymentIntent
    {
        $key = $idempotencyKey ?? IdempotencyKey::generate();
        return $this->resource(
            PaymentIntent::class,
            $this->sender->request('POST', '/v1/payment-intents', [], $params, $key),
        );
    }

    public function retrieve(string $id): PaymentIntent
    {
        $path = '/v1/payment-intents/' . self::idSegment($id, 'payment intent id');
        return $this->resource(PaymentIntent::class, $this->sender->request('GET', $path));
    }

    /**
     * Confirms an intent with a gateway token. After a ConnectionException, retrieve the intent
     * instead of confirming again. A decline throws CardException with the failed intent.
     *
     * @param array<string, mixed>|\stdClass $params payment_method_token
     */
    public function confirm(string $id, array|\stdClass $params = []): PaymentIntent
    {
        $path = '/v1/payment-intents/' . self::idSegment($id, 'payment intent id') . '/confirm';
        return $this->resource(PaymentIntent::class, $this->sender->request('POST', $path, [], $params));
    }

    /**
     * Captures all (no amount_minor) or part of a REQUIRES_CAPTURE intent (capture_method manual).
     * Safe to repeat with the same Idempotency-Key (a UUID v4 when none is given). A capture the
     * gateway refuses throws CardException with the intent, still REQUIRES_CAPTURE.
     *
     * @param array<string, mixed>|\stdClass $params amount_minor (int, optional)
     */
    public function capture(string $id, array|\stdClass $params = [], ?string $idempotencyKey = null): PaymentIntent
    {
        $key = $idempotencyKey ?? IdempotencyKey::generate();
        $path = '/v1/payment-intents/' . self::idSegment($id, 'payment intent id') . '/capture';
        return $this->resource(PaymentIntent::class, $this->sender->request('POST', $path, [], $params, $key));
    }

    /**
     * Cancels an intent in CREATED or REQUIRES_ACTION, or voids one in REQUIRES_CAPTURE; otherwise
     * InvalidStateException.
     *
     * @param array<string, mixed>|\stdClass $params
     */
    public function cancel(string $id, array|\stdClass $params = []): PaymentIntent
    {
        $path = '/v1/payment-intents/' . self::idSegment($id, 'payment intent id') . '/cancel';
        return $this->resource(PaymentIntent::class, $this->sender->request('POST', $path, [], $params));
    }
}
