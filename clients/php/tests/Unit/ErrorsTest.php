<?php

declare(strict_types=1);

namespace Paygate\Tests\Unit;

use Paygate\Exception\AmountException;
use Paygate\Exception\ApiException;
use Paygate\Exception\AuthenticationException;
use Paygate\Exception\CardException;
use Paygate\Exception\FieldError;
use Paygate\Exception\GatewayUnavailableException;
use Paygate\Exception\IdempotencyException;
use Paygate\Exception\InternalServerException;
use Paygate\Exception\InvalidRequestException;
use Paygate\Exception\InvalidStateException;
use Paygate\Exception\NotFoundException;
use Paygate\Exception\PaygateException;
use Paygate\Exception\PermissionException;
use Paygate\Exception\RateLimitException;
use Paygate\Tests\Support\ScriptedServer;
use Paygate\Tests\Support\TestCase;

final class ErrorsTest extends TestCase
{
    /** The specification's codes, their statuses and the class of their family. */
    private const CODES = [
        ['validation_error', 400, InvalidRequestException::class],
        ['invalid_api_key', 401, AuthenticationException::class],
        ['invalid_client_secret', 401, AuthenticationException::class],
        ['invalid_webhook_signature', 401, AuthenticationException::class],
        ['card_declined', 402, CardException::class],
        ['gateway_rejected', 402, CardException::class],
        ['insufficient_permissions', 403, PermissionException::class],
        ['resource_not_found', 404, NotFoundException::class],
        ['idempotency_key_reuse', 409, IdempotencyException::class],
        ['idempotency_key_in_flight', 409, IdempotencyException::class],
        ['invalid_state_transition', 409, InvalidStateException::class],
        ['currency_not_supported', 422, AmountException::class],
        ['amount_below_minimum', 422, AmountException::class],
        ['amount_exceeds_refundable', 422, AmountException::class],
        ['rate_limited', 429, RateLimitException::class],
        ['internal_error', 500, InternalServerException::class],
        ['gateway_unavailable', 503, GatewayUnavailableException::class],
    ];

    public function testEveryCodeGetsItsFamilysClassWithCodeStatusProblemAndRequestId(): void
    {
        $server = $this->server(array_map(
            static fn (array $case): array => ScriptedServer::problem($case[1], $case[0], ['errors' => [], 'n' => 7]),
            self::CODES,
        ));
        // POSTs, so each code is answered once, without retries.
        $client = $this->client($server->baseUrl);
        $classByFamily = [];
        foreach (self::CODES as [$code, $status, $class]) {
            try {
                $client->paymentIntents->cancel('pi_1');
                self::fail("no exception for {$code}");
            } catch (ApiException $e) {
                self::assertSame($class, $e::class, $code);
                self::assertInstanceOf(PaygateException::class, $e);
                self::assertSame($code, $e->getErrorCode());
                self::assertSame($status, $e->getStatus());
                self::assertSame($status, $e->getCode());
                self::assertSame("req_test_{$status}", $e->getRequestId());
                self::assertSame($code, $e->getProblem()->code);
                self::assertSame([], $e->getProblem()->errors);
                self::assertSame(7, $e->getProblem()->n);
                self::assertStringContainsString("detail of {$code}", $e->getMessage());
                $classByFamily[$class] = true;
            }
        }
        // Eleven families, none sharing a class, none the generic class an unknown code gets.
        self::assertCount(11, $classByFamily);
        self::assertArrayNotHasKey(ApiException::class, $classByFamily);
    }

    public function testAnUnknownCodeGetsTheGenericClass(): void
    {
        $server = $this->server([ScriptedServer::problem(418, 'brand_new_code')]);
        try {
            $this->client($server->baseUrl)->paymentIntents->cancel('pi_1');
            self::fail('no exception');
        } catch (ApiException $e) {
            self::assertSame(ApiException::class, $e::class);
            self::assertSame('brand_new_code', $e->getErrorCode());
        }
    }

    public function testAResponseThatIsNotAProblemDocumentStillRaisesAnApiError(): void
    {
        $server = $this->server([[
            'status' => 502,
            'headers' => ['Content-Type' => 'text/html'],
            'body' => '<html>Bad Gateway</html>',
        ]]);
        try {
            $this->client($server->baseUrl)->paymentIntents->cancel('pi_1');
            self::fail('no exception');
        } catch (ApiException $e) {
            self::assertSame('unexpected_response', $e->getErrorCode());
            self::assertSame(502, $e->getStatus());
            self::assertSame('<html>Bad Gateway</html>', $e->getRawBody());
            self::assertNull($e->getRequestId());
        }
    }

    public function testTheRequestIdFallsBackToTheProblemDocument(): void
    {
        $server = $this->server([[
            'status' => 404,
            'headers' => ['Content-Type' => 'application/problem+json'],
            'body' => '{"code":"resource_not_found","status":404,"request_id":"req_body"}',
        ]]);
        try {
            $this->client($server->baseUrl)->paymentIntents->retrieve('pi_1');
            self::fail('no exception');
        } catch (NotFoundException $e) {
            self::assertSame('req_body', $e->getRequestId());
        }
    }

    public function testASuccessThatIsNotAJsonObjectIsAnError(): void
    {
        $server = $this->server([ScriptedServer::json(200, '[1,2]')]);
        $this->expectException(ApiException::class);
        $this->client($server->baseUrl)->paymentIntents->cancel('pi_1');
    }

    public function testTheRecordedValidationErrorNamesItsFieldsTyped(): void
    {
        $problem = self::fixture('validation-error.problem.json');
        $problem->errors[] = (object) ['field' => 'currency', 'message' => 'unknown', 'hint_added_later' => true];
        $problem->errors[] = (object) ['field' => 7];
        $server = $this->server([ScriptedServer::json(400, $problem)]);
        try {
            $this->client($server->baseUrl)->paymentIntents->create(
                ['amount_minor' => 2500, 'currency' => 'USD', 'gateway_id' => 'sim'],
            );
            self::fail('a 400 validation_error was accepted');
        } catch (InvalidRequestException $e) {
            self::assertEquals(
                [new FieldError('metadata.order_id', 'must be of type string'), new FieldError('currency', 'unknown')],
                $e->getFieldErrors(),
            );
            self::assertEquals($problem, $e->getProblem());
        }
    }
}
