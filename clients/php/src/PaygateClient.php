<?php

declare(strict_types=1);

namespace Paygate;

use Paygate\Exception\ConfigurationException;
use Paygate\Service\CustomerService;
use Paygate\Service\DisputeService;
use Paygate\Service\PaymentIntentService;
use Paygate\Service\RefundService;
use Paygate\Service\SavedPaymentMethodService;
use Paygate\Service\TransactionService;

/**
 * The Paygate API client.
 *
 *     $paygate = new Paygate\PaygateClient([
 *         'api_key' => getenv('PAYGATE_API_KEY'),     // sk_test_... or sk_live_...; pk_ keys are refused
 *         'base_url' => 'https://pay.example.com',     // http or https; default http://localhost:8080
 *         'timeout' => 30,                             // seconds per attempt
 *         'max_retries' => 2,                          // GET retries (and a POST that never left)
 *         'telemetry' => true,                         // PHP version in the User-Agent
 *     ]);
 *
 * Testing aids: 'http_client' (a Paygate\Http\HttpClient that sends each attempt), 'sleep'
 * (callable(int $milliseconds): void, called for every back-off wait) and 'random'
 * (callable(): float in [0, 1), the jitter source).
 */
final class PaygateClient
{
    public const VERSION = '1.0.0';

    public readonly PaymentIntentService $paymentIntents;
    public readonly RefundService $refunds;
    public readonly DisputeService $disputes;
    public readonly TransactionService $transactions;
    public readonly CustomerService $customers;
    public readonly SavedPaymentMethodService $savedPaymentMethods;
    private readonly ClientConfig $config;

    /**
     * @param array<string, mixed> $options
     * @throws ConfigurationException
     */
    public function __construct(array $options)
    {
        $this->config = new ClientConfig($options);
        $sender = new RequestSender($this->config);
        $this->paymentIntents = new PaymentIntentService($sender);
        $this->refunds = new RefundService($sender);
        $this->disputes = new DisputeService($sender);
        $this->transactions = new TransactionService($sender);
        $this->customers = new CustomerService($sender);
        $this->savedPaymentMethods = new SavedPaymentMethodService($sender);
    }

    /** The exact User-Agent this client sends. */
    public function getUserAgent(): string
    {
        return $this->config->userAgent;
    }

    /** The base address in use, without a trailing slash. */
    public function getBaseUrl(): string
    {
        return $this->config->baseUrl;
    }
}
