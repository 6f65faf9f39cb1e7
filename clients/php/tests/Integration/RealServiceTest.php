<?php

declare(strict_types=1);

namespace Paygate\Tests\Integration;

use Paygate\Exception\AmountException;
use Paygate\Exception\AuthenticationException;
use Paygate\Exception\CardException;
use Paygate\Exception\IdempotencyException;
use Paygate\Exception\InvalidRequestException;
use Paygate\Exception\InvalidStateException;
use Paygate\Exception\NotFoundException;
use Paygate\PaygateClient;
use Paygate\Resource\Event;
use Paygate\Resource\LastPaymentError;
use Paygate\Resource\PaymentIntent;
use Paygate\Resource\Transaction;
use PHPUnit\Framework\TestCase;

/**
 * Against the real service: run through ../conformance/with-service.mjs, which sets the
 * PAYGATE_ variables (see run-tests).
 */
final class RealServiceTest extends TestCase
{
    private static function env(string $name): string
    {
        $value = getenv($name);
        if (!is_string($value) || $value === '') {
            throw new \RuntimeException(
                "{$name} is not set: run through node ../conformance/with-service.mjs"
                . ' -- phpunit --testsuite integration',
            );
        }
        return $value;
    }

    private static function client(): PaygateClient
    {
        return new PaygateClient([
            'api_key' => self::env('PAYGATE_API_KEY'),
            'base_url' => self::env('PAYGATE_BASE_URL'),
        ]);
    }

    private static function createIntent(PaygateClient $client, int $amount, ?string $key = null): PaymentIntent
    {
        return $client->paymentIntents->create(
            ['amount_minor' => $amount, 'currency' => 'USD', 'gateway_id' => 'sim',
                'metadata' => (object) ['order_id' => 'ord_php_' . bin2hex(random_bytes(4))]],
            $key,
        );
    }

    public function testPaysRefundsAndListsEndToEnd(): void
    {
        $client = self::client();
        $intent = self::createIntent($client, 2500);
        self::assertSame('CREATED', $intent->status);
        self::assertSame(2500, $intent->amountMinor);
        self::assertNotNull($intent->getIdempotencyKey());
        self::assertSame($intent->getIdempotencyKey(), $intent->getLastResponse()?->idempotencyKey);
        self::assertNotNull($intent->getLastResponse()?->requestId);

        $paid = $client->paymentIntents->confirm($intent->id, ['payment_method_token' => 'tok_sim_approve']);
        self::assertSame('SUCCEEDED', $paid->status);
        self::assertSame('SUCCEEDED', $client->paymentIntents->retrieve($intent->id)->status);

        $refundKey = 'order-' . $intent->id . '-refund-1';
        $refund = $client->refunds->create(['payment_intent_id' => $intent->id, 'amount_minor' => 1000], $refundKey);
        self::assertSame(1000, $refund->amountMinor);
        self::assertSame($refundKey, $refund->getIdempotencyKey());
        self::assertFalse($refund->getLastResponse()?->replayed);
        self::assertSame($refund->id, $client->refunds->retrieve($refund->id)->id);

        // The same key and body again: the original answer, marked as a replay, no second refund.
        $again = $client->refunds->create(['payment_intent_id' => $intent->id, 'amount_minor' => 1000], $refundKey);
        self::assertSame($refund->id, $again->id);
        self::assertTrue($again->getLastResponse()?->replayed);
        try {
            $client->refunds->create(['payment_intent_id' => $intent->id, 'amount_minor' => 999], $refundKey);
            self::fail('a reused key with another body was accepted');
        } catch (IdempotencyException $e) {
            self::assertSame('idempotency_key_reuse', $e->getErrorCode());
            self::assertSame(409, $e->getStatus());
        }
        try {
            $client->refunds->create(['payment_intent_id' => $intent->id, 'amount_minor' => 1501]);
            self::fail('refunded more than what remains');
        } catch (AmountException $e) {
            self::assertSame('amount_exceeds_refundable', $e->getErrorCode());
        }

        // limit 1: every item is a page of its own, so this walks the cursor.
        $mine = [];
        foreach ($client->transactions->all(['limit' => 1]) as $transaction) {
            self::assertInstanceOf(Transaction::class, $transaction);
            if ($transaction->paymentIntentId === $intent->id) {
                $mine[$transaction->type] = $transaction->amountMinor;
            }
        }
        ksort($mine);
        self::assertSame(['PAYMENT' => 2500, 'REFUND' => 1000], $mine);
    }

    public function testAManualIntentIsAuthorisedThenCapturedInPart(): void
    {
        $client = self::client();
        $intent = $client->paymentIntents->create(
            ['amount_minor' => 8000, 'currency' => 'EUR', 'gateway_id' => 'sim', 'capture_method' => 'manual'],
        );
        self::assertSame('manual', $intent->captureMethod);
        $authorised = $client->paymentIntents->confirm($intent->id, ['payment_method_token' => 'tok_sim_approve']);
        self::assertSame(PaymentIntent::STATUS_REQUIRES_CAPTURE, $authorised->status);
        self::assertSame(8000, $authorised->amountCapturableMinor);
        self::assertNotNull($authorised->captureBefore);
        try {
            $client->paymentIntents->capture($intent->id, ['amount_minor' => 8001]);
            self::fail('more than capturable was accepted');
        } catch (AmountException $error) {
            self::assertSame('amount_exceeds_capturable', $error->getErrorCode());
        }
        $key = 'php-capture-' . $intent->id;
        $captured = $client->paymentIntents->capture($intent->id, ['amount_minor' => 6000], $key);
        self::assertSame(PaymentIntent::STATUS_SUCCEEDED, $captured->status);
        self::assertSame(6000, $captured->amountCapturedMinor);
        self::assertSame($key, $captured->getIdempotencyKey());
        $again = $client->paymentIntents->capture($intent->id, ['amount_minor' => 6000], $key);
        self::assertTrue($again->getLastResponse()?->replayed);
    }

    public function testErrorsArriveAsTheirClasses(): void
    {
        $client = self::client();
        $declined = self::createIntent($client, 2600);
        try {
            $client->paymentIntents->confirm($declined->id, ['payment_method_token' => 'tok_sim_decline']);
            self::fail('a declined card was accepted');
        } catch (CardException $e) {
            self::assertSame('card_declined', $e->getErrorCode());
            self::assertSame(402, $e->getStatus());
            self::assertSame('FAILED', $e->getPaymentIntent()?->status);
            self::assertNotNull($e->getRequestId());
            foreach ([$e->getPaymentIntent(), $client->paymentIntents->retrieve($declined->id)] as $failed) {
                $failure = $failed?->lastPaymentError;
                self::assertInstanceOf(LastPaymentError::class, $failure);
                self::assertSame('card_declined', $failure->code);
                self::assertNull($failure->declineCode); // the simulated gateway gives no reason of its own
                self::assertNotSame('', $failure->message);
            }
        }
        self::assertNull($client->paymentIntents->retrieve(self::createIntent($client, 2650)->id)->lastPaymentError);

        $open = self::createIntent($client, 2700);
        self::assertSame('CANCELED', $client->paymentIntents->cancel($open->id)->status);
        try {
            $client->paymentIntents->cancel($open->id);
            self::fail('cancelled twice');
        } catch (InvalidStateException $e) {
            self::assertSame('invalid_state_transition', $e->getErrorCode());
        }

        try {
            $client->paymentIntents->retrieve('pi_doesnotexist000000000000');
            self::fail('found a missing intent');
        } catch (NotFoundException $e) {
            self::assertSame(404, $e->getStatus());
        }
        try {
            self::createIntent($client, 10);
            self::fail('accepted an amount below the minimum');
        } catch (AmountException $e) {
            self::assertSame('amount_below_minimum', $e->getErrorCode());
        }
        try {
            $client->paymentIntents->create(['amount_minor' => 19.99, 'currency' => 'USD', 'gateway_id' => 'sim']);
            self::fail('accepted a float amount');
        } catch (InvalidRequestException $e) {
            self::assertSame('validation_error', $e->getErrorCode());
            self::assertSame(['amount_minor'], array_column($e->getFieldErrors(), 'field'));
        }
        $wrongKey = new PaygateClient([
            'api_key' => 'sk_test_' . str_repeat('0', 40),
            'base_url' => self::env('PAYGATE_BASE_URL'),
        ]);
        try {
            $wrongKey->paymentIntents->retrieve($open->id);
            self::fail('a wrong key was accepted');
        } catch (AuthenticationException $e) {
            self::assertSame('invalid_api_key', $e->getErrorCode());
        }
    }

    public function testTheExampleReceiverVerifiesAndDeduplicatesARealDelivery(): void
    {
        $port = self::freePort();
        $merchant = self::env('PAYGATE_MERCHANT_ID');
        $endpoint = self::admin('POST', "/admin/v1/merchants/{$merchant}/webhook-endpoints", [
            'url' => "http://127.0.0.1:{$port}/paygate/webhooks",
            'livemode' => false,
        ]);
        self::assertIsString($endpoint['secret'] ?? null);
        $inbox = sys_get_temp_dir() . '/paygate-php-inbox-' . bin2hex(random_bytes(6));
        $log = $inbox . '.log';
        // The example as it sits in a merchant's project: beside a vendor/autoload.php.
        $project = $inbox . '.project';
        mkdir("{$project}/vendor", 0700, true);
        $autoload = var_export((string) realpath(__DIR__ . '/../../vendor/autoload.php'), true);
        file_put_contents("{$project}/vendor/autoload.php", "<?php\n\nrequire {$autoload};\n");
        copy(__DIR__ . '/../../examples/webhook-receiver.php', "{$project}/webhook-receiver.php");
        $receiver = proc_open(
            [PHP_BINARY, '-S', "127.0.0.1:{$port}", "{$project}/webhook-receiver.php"],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', $log, 'w'], 2 => ['file', $log, 'w']],
            $pipes,
            null,
            ['PAYGATE_WEBHOOK_SECRETS' => $endpoint['secret'], 'PAYGATE_WEBHOOK_INBOX' => $inbox] + getenv(),
        );
        self::assertIsResource($receiver);
        try {
            // The first attempt comes at once and a refused one is retried only a minute later.
            self::waitFor(
                static fn (): string => 'the receiver did not start: ' . file_get_contents($log),
                static function () use ($port): ?bool {
                    $socket = @stream_socket_client("tcp://127.0.0.1:{$port}", $errno, $error, 1);
                    if ($socket === false) {
                        return null;
                    }
                    fclose($socket);
                    return true;
                },
            );
            $client = self::client();
            $intent = self::createIntent($client, 2800);
            $client->paymentIntents->confirm($intent->id, ['payment_method_token' => 'tok_sim_approve']);

            // On failure: what the receiver logged and what the service recorded of its attempts.
            $explain = static fn (): string => 'receiver log: ' . file_get_contents($log) . "\ndeliveries: "
                . json_encode(self::admin('GET', "/admin/v1/webhook-endpoints/{$endpoint['id']}/deliveries?limit=20"));
            $event = self::waitFor($explain, static function () use ($inbox, $intent): ?\stdClass {
                foreach (glob("{$inbox}/evt_*.json") ?: [] as $file) {
                    $event = json_decode((string) file_get_contents($file));
                    if ($event->type === 'payment_intent.succeeded' && $event->data->object->id === $intent->id) {
                        return $event;
                    }
                }
                return null;
            });
            self::assertSame(2800, $event->data->object->amount_minor);
            self::assertSame('SUCCEEDED', $event->data->object->status);

            // The delivery was answered 2xx (the service marks it DELIVERED).
            $delivery = self::waitFor($explain, static function () use ($endpoint, $event): ?array {
                $list = self::admin('GET', "/admin/v1/webhook-endpoints/{$endpoint['id']}/deliveries?limit=20");
                foreach ($list['data'] as $delivery) {
                    if ($delivery['event_id'] === $event->id && $delivery['status'] === 'DELIVERED') {
                        return $delivery;
                    }
                }
                return null;
            });

            // A redelivery of the same event is acknowledged 2xx and not stored twice.
            $retried = self::admin('POST', "/admin/v1/webhook-deliveries/{$delivery['id']}/retry", []);
            $answers = array_column($retried['attempts'], 'response_excerpt');
            self::assertGreaterThanOrEqual(2, count($answers), json_encode($retried));
            self::assertSame(['{"received":true}'], array_values(array_unique($answers)), json_encode($retried));
            self::assertCount(1, glob("{$inbox}/{$event->id}.json") ?: []);
            self::assertSame([], glob("{$inbox}/.incoming-*") ?: [], 'no half-written file is left behind');

            // A decline arrives as payment_intent.failed, whose intent says why.
            $rejected = self::createIntent($client, 2900);
            try {
                $client->paymentIntents->confirm($rejected->id, ['payment_method_token' => 'tok_sim_reject']);
                self::fail('a rejected payment was accepted');
            } catch (CardException $e) {
                self::assertSame('gateway_rejected', $e->getErrorCode());
            }
            $failedEvent = self::waitFor($explain, static function () use ($inbox, $rejected): ?Event {
                foreach (glob("{$inbox}/evt_*.json") ?: [] as $file) {
                    $event = Event::fromJson(json_decode((string) file_get_contents($file)));
                    if ($event->type === 'payment_intent.failed' && $event->dataObject->id === $rejected->id) {
                        return $event;
                    }
                }
                return null;
            });
            $failedIntent = $failedEvent->getObject();
            self::assertInstanceOf(PaymentIntent::class, $failedIntent);
            self::assertSame('gateway_rejected', $failedIntent->lastPaymentError?->code);
            self::assertIsString($failedIntent->lastPaymentError->message);
        } finally {
            proc_terminate($receiver);
            proc_close($receiver);
            array_map('unlink', glob("{$inbox}/*") ?: []);
            @rmdir($inbox);
            @unlink($log);
            array_map('unlink', [...(glob("{$project}/vendor/*") ?: []), ...(glob("{$project}/*.php") ?: [])]);
            @rmdir("{$project}/vendor");
            @rmdir($project);
        }
    }

    /**
     * Polls until $probe returns non-null; fails after a generous deadline (the machine may be loaded).
     *
     * @template T
     * @param callable(): string $explain what to show when the deadline passes
     * @param callable(): (T|null) $probe
     * @return T
     */
    private static function waitFor(callable $explain, callable $probe): mixed
    {
        $deadline = microtime(true) + 60;
        while (true) {
            $value = $probe();
            if ($value !== null) {
                return $value;
            }
            if (microtime(true) > $deadline) {
                self::fail("condition not met within 60 s\n" . $explain());
            }
            usleep(100_000);
        }
    }

    private static function freePort(): int
    {
        $socket = stream_socket_server('tcp://127.0.0.1:0');
        self::assertIsResource($socket);
        $name = (string) stream_socket_get_name($socket, false);
        fclose($socket);
        return (int) substr($name, strrpos($name, ':') + 1);
    }

    /**
     * The operator API (not part of the client): plain curl.
     *
     * @param array<string, mixed>|null $body
     * @return array<string, mixed>
     */
    private static function admin(string $method, string $path, ?array $body = null): array
    {
        $curl = curl_init(self::env('PAYGATE_BASE_URL') . $path);
        self::assertNotFalse($curl);
        $headers = ['X-Admin-Token: ' . self::env('PAYGATE_ADMIN_TOKEN'), 'Accept: application/json'];
        if ($body !== null) {
            $headers[] = 'Content-Type: application/json';
            curl_setopt($curl, CURLOPT_POSTFIELDS, json_encode($body));
        }
        curl_setopt_array($curl, [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_HTTPHEADER => $headers,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_TIMEOUT => 30,
        ]);
        $response = curl_exec($curl);
        $status = curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        self::assertIsString($response);
        self::assertLessThan(300, $status, $response);
        return json_decode($response, true, 512, JSON_THROW_ON_ERROR);
    }
}
