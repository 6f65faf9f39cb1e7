<?php

declare(strict_types=1);

namespace Paygate\Conformance;

use Paygate\Exception\ApiException;
use Paygate\Exception\ConfigurationException;
use Paygate\Exception\ConnectionException;
use Paygate\Exception\InvalidPayloadException;
use Paygate\Exception\PaygateException;
use Paygate\Exception\SignatureVerificationException;
use Paygate\Json;
use Paygate\PaygateClient;
use Paygate\Resource\ApiResource;
use Paygate\Webhook;

/**
 * Runs the commands of the shared conformance protocol against the PHP client.
 */
final class Driver
{
    /** Ops whose replies carry sleeps_ms and attempts. */
    private const HTTP_OPS = [
        'payment_intents.create',
        'payment_intents.retrieve',
        'payment_intents.confirm',
        'payment_intents.capture',
        'payment_intents.cancel',
        'refunds.create',
        'refunds.retrieve',
        'transactions.list_all',
        'customers.create',
        'customers.retrieve',
        'customers.update',
        'customers.delete',
        'customers.list_all',
        'saved_payment_methods.list_all',
        'saved_payment_methods.detach',
    ];

    private ?PaygateClient $client = null;
    private RecordingHttpClient $http;
    /** @var int[] */
    private array $sleeps = [];

    public function __construct()
    {
        $this->http = new RecordingHttpClient();
    }

    /**
     * @param resource $input
     * @param resource $output
     */
    public function run($input, $output): int
    {
        while (($line = fgets($input)) !== false) {
            if (trim($line) === '') {
                continue;
            }
            fwrite($output, Json::encode($this->handle($line)) . "\n");
            fflush($output);
        }
        return 0;
    }

    /**
     * @return array<string, mixed>
     */
    public function handle(string $line): array
    {
        $id = null;
        $op = null;
        $this->sleeps = [];
        $this->http->attempts = 0;
        try {
            try {
                $command = Json::decode($line);
            } catch (\JsonException $e) {
                throw new ConfigurationException('The command is not JSON: ' . $e->getMessage());
            }
            if (!$command instanceof \stdClass) {
                throw new ConfigurationException('The command is not a JSON object');
            }
            $id = $command->id ?? null;
            $op = $command->op ?? null;
            $reply = ['id' => $id, 'ok' => true, 'result' => $this->execute(is_string($op) ? $op : '', $command)];
        } catch (\Throwable $error) {
            $reply = ['id' => $id, 'ok' => false, 'error' => self::describe($error)];
        }
        if (in_array($op, self::HTTP_OPS, true)) {
            $reply['sleeps_ms'] = $this->sleeps;
            $reply['attempts'] = $this->http->attempts;
        }
        return $reply;
    }

    private function execute(string $op, \stdClass $command): \stdClass
    {
        return match ($op) {
            'configure' => $this->configure($command),
            'info' => $this->info(),
            'payment_intents.create' => self::created(
                $this->client()->paymentIntents->create(self::params($command), self::key($command)),
            ),
            'payment_intents.retrieve' => self::wrap(
                $this->client()->paymentIntents->retrieve(self::resourceId($command)),
            ),
            'payment_intents.confirm' => self::wrap(
                $this->client()->paymentIntents->confirm(self::resourceId($command), self::params($command)),
            ),
            'payment_intents.capture' => self::created(
                $this->client()->paymentIntents->capture(
                    self::resourceId($command),
                    self::params($command),
                    self::key($command),
                ),
            ),
            'payment_intents.cancel' => self::wrap(
                $this->client()->paymentIntents->cancel(self::resourceId($command), self::params($command)),
            ),
            'refunds.create' => self::created(
                $this->client()->refunds->create(self::params($command), self::key($command)),
            ),
            'refunds.retrieve' => self::wrap($this->client()->refunds->retrieve(self::resourceId($command))),
            'transactions.list_all' => $this->listAll($command),
            'customers.create' => self::created(
                $this->client()->customers->create(self::params($command), self::key($command)),
            ),
            'customers.retrieve' => self::wrap($this->client()->customers->retrieve(self::resourceId($command))),
            'customers.update' => self::wrap(
                $this->client()->customers->update(self::resourceId($command), self::params($command)),
            ),
            'customers.delete' => self::wrap($this->client()->customers->delete(self::resourceId($command))),
            'customers.list_all' => self::items($this->client()->customers->all(self::params($command))),
            'saved_payment_methods.list_all' => self::items(
                $this->client()->savedPaymentMethods->all(self::resourceId($command), self::params($command)),
            ),
            'saved_payment_methods.detach' => self::wrap(
                $this->client()->savedPaymentMethods->detach(self::resourceId($command)),
            ),
            'webhooks.construct_event' => self::constructEvent($command),
            'webhooks.test_header' => self::testHeader($command),
            default => throw new ConfigurationException('Unknown op ' . json_encode($op)),
        };
    }

    private function configure(\stdClass $command): \stdClass
    {
        $this->client = null;
        $options = ['http_client' => $this->http];
        foreach (['api_key', 'base_url', 'max_retries', 'telemetry'] as $name) {
            if (property_exists($command, $name)) {
                $options[$name] = $command->{$name};
            }
        }
        if (property_exists($command, 'timeout_ms')) {
            $timeout = $command->timeout_ms;
            // Any other type goes to the client as it is, for the client's own check to refuse.
            $options['timeout'] = (is_int($timeout) || is_float($timeout)) ? $timeout / 1000 : $timeout;
        }
        $recordOnly = ($command->record_sleeps ?? false) === true;
        $options['sleep'] = function (int $milliseconds) use ($recordOnly): void {
            $this->sleeps[] = $milliseconds;
            if (!$recordOnly) {
                usleep($milliseconds * 1000);
            }
        };
        $this->client = new PaygateClient($options);
        return new \stdClass();
    }

    private function info(): \stdClass
    {
        return (object) [
            'language' => 'php',
            'client_version' => PaygateClient::VERSION,
            'runtime_version' => PHP_VERSION,
            'user_agent' => $this->client()->getUserAgent(),
        ];
    }

    private function listAll(\stdClass $command): \stdClass
    {
        $items = [];
        foreach ($this->client()->transactions->all(self::params($command)) as $transaction) {
            $items[] = $transaction;
        }
        return (object) ['items' => $items];
    }

    /** @param iterable<mixed> $resources */
    private static function items(iterable $resources): \stdClass
    {
        $items = [];
        foreach ($resources as $resource) {
            $items[] = $resource;
        }
        return (object) ['items' => $items];
    }

    private static function constructEvent(\stdClass $command): \stdClass
    {
        $tolerance = $command->tolerance_seconds ?? Webhook::DEFAULT_TOLERANCE_SECONDS;
        $now = $command->now_unix ?? null;
        $secrets = $command->secrets ?? null;
        if (!is_int($tolerance)) {
            throw new ConfigurationException('tolerance_seconds must be an integer');
        }
        if ($now !== null && !is_int($now)) {
            throw new ConfigurationException('now_unix must be an integer');
        }
        // A string or a list goes to the client as it came: the suite checks both shapes.
        if (!is_array($secrets) && !is_string($secrets)) {
            throw new ConfigurationException('secrets must be a string or a list');
        }
        $event = Webhook::constructEvent(
            self::string($command, 'payload'),
            self::string($command, 'header'),
            $secrets,
            $tolerance,
            $now,
        );
        return (object) ['event' => $event];
    }

    private static function testHeader(\stdClass $command): \stdClass
    {
        $timestamp = $command->timestamp_unix ?? null;
        if ($timestamp !== null && !is_int($timestamp)) {
            throw new ConfigurationException('timestamp_unix must be an integer');
        }
        $header = Webhook::generateTestHeader(
            self::string($command, 'payload'),
            self::string($command, 'secret'),
            $timestamp,
        );
        return (object) ['header' => $header];
    }

    private function client(): PaygateClient
    {
        return $this->client ?? throw new ConfigurationException('No client: send a configure command first');
    }

    private static function created(ApiResource $resource): \stdClass
    {
        return (object) ['resource' => $resource, 'idempotency_key' => $resource->getIdempotencyKey()];
    }

    private static function wrap(ApiResource $resource): \stdClass
    {
        return (object) ['resource' => $resource];
    }

    private static function params(\stdClass $command): \stdClass
    {
        $params = $command->params ?? new \stdClass();
        if (!$params instanceof \stdClass) {
            throw new ConfigurationException('params must be a JSON object');
        }
        return $params;
    }

    private static function key(\stdClass $command): ?string
    {
        $key = $command->idempotency_key ?? null;
        if ($key !== null && !is_string($key)) {
            throw new ConfigurationException('idempotency_key must be a string');
        }
        return $key;
    }

    private static function resourceId(\stdClass $command): string
    {
        return self::string($command, 'resource_id');
    }

    private static function string(\stdClass $command, string $name): string
    {
        $value = $command->{$name} ?? null;
        if (!is_string($value)) {
            throw new ConfigurationException("{$name} must be a string");
        }
        return $value;
    }

    /**
     * @return array<string, mixed>
     */
    private static function describe(\Throwable $error): array
    {
        $description = [
            'kind' => self::kind($error),
            'class' => $error::class,
            'root' => $error instanceof PaygateException,
            'code' => null,
            'status' => null,
            'request_id' => null,
            'problem' => null,
            'message' => $error->getMessage(),
        ];
        if ($error instanceof ApiException) {
            $description['code'] = $error->getErrorCode();
            $description['status'] = $error->getStatus();
            $description['request_id'] = $error->getRequestId();
            $description['problem'] = $error->getProblem();
        } elseif (!$error instanceof PaygateException) {
            // Not the client's own error (a bug, or a type the protocol cannot express): say so on stderr.
            fwrite(STDERR, 'driver: ' . $error::class . ': ' . $error->getMessage() . "\n");
        }
        return $description;
    }

    private static function kind(\Throwable $error): string
    {
        return match (true) {
            $error instanceof ApiException => 'api',
            $error instanceof ConnectionException => 'connection',
            $error instanceof SignatureVerificationException => 'signature_verification',
            $error instanceof InvalidPayloadException => 'invalid_payload',
            default => 'configuration',
        };
    }
}
