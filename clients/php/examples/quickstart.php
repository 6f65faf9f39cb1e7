<?php

// The quick start: one test payment and a partial refund against your Paygate service, then the
// payment's transactions. PAYGATE_URL is the service (without /v1), PAYGATE_SECRET_KEY a sk_test_ key.

declare(strict_types=1);

require __DIR__ . '/vendor/autoload.php';

use Paygate\IdempotencyKey;
use Paygate\PaygateClient;

$paygate = new PaygateClient([
    'api_key' => (string) getenv('PAYGATE_SECRET_KEY'),
    'base_url' => (string) (getenv('PAYGATE_URL') ?: 'http://localhost:8080'),
]);

// Keep the idempotency key with your order before the call: a lost create is repeated with it.
$intent = $paygate->paymentIntents->create(
    ['amount_minor' => 1999, 'currency' => 'USD', 'gateway_id' => 'sim', 'metadata' => ['order_id' => 'order_42']],
    IdempotencyKey::generate(),
);
// The simulator's approving test token; in a shop the browser component confirms instead.
$paid = $paygate->paymentIntents->confirm($intent->id, ['payment_method_token' => 'tok_sim_approve']);
echo "payment {$paid->id} {$paid->status} {$paid->amountMinor} {$paid->currency}\n";

$refund = $paygate->refunds->create(['payment_intent_id' => $paid->id, 'amount_minor' => 500]);
echo "refund {$refund->id} {$refund->status} {$refund->amountMinor}\n";

$count = 0;
foreach ($paygate->transactions->all(['limit' => 100]) as $txn) {
    $count += $txn->paymentIntentId === $paid->id ? 1 : 0;
}
echo "transactions of {$paid->id}: {$count}\n";
