<?php

declare(strict_types=1);

namespace Paygate\Exception;

use Paygate\Resource\PaymentIntent;

/**
 * HTTP 402 card_declined or gateway_rejected: the gateway refused the payment. The failed intent
 * travels in the problem document and is available as getPaymentIntent().
 */
class CardException extends ApiException
{
    public function getPaymentIntent(): ?PaymentIntent
    {
        $intent = $this->getProblem()->payment_intent ?? null;
        if (!$intent instanceof \stdClass) {
            return null;
        }
        try {
            return PaymentIntent::fromJson($intent);
        } catch (\UnexpectedValueException) {
            return null;
        }
    }
}
