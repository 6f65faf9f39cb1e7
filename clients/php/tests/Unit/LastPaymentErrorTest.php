<?php

declare(strict_types=1);

namespace Paygate\Tests\Unit;

use Paygate\Exception\CardException;
use Paygate\Resource\Event;
use Paygate\Resource\LastPaymentError;
use Paygate\Resource\PaymentIntent;
use Paygate\Tests\Support\ScriptedServer;
use Paygate\Tests\Support\TestCase;
use Paygate\Webhook;

/** Why a payment failed: last_payment_error typed on the intent, in the 402 and in the event. */
final class LastPaymentErrorTest extends TestCase
{
    private const SECRET = 'whsec_current0123456789';
    private const T = 1767225600;

    private static function construct(string $payload): Event
    {
        $header = Webhook::generateTestHeader($payload, self::SECRET, self::T);
        return Webhook::constructEvent($payload, $header, [self::SECRET], 300, self::T);
    }

    public function testTheRecordedDeclinedConfirmThrowsACardExceptionWhoseIntentSaysWhy(): void
    {
        $problem = self::fixture('declined-confirm.problem.json');
        $server = $this->server([ScriptedServer::json(402, $problem)]);
        try {
            $this->client($server->baseUrl)->paymentIntents->confirm(
                $problem->payment_intent->id,
                ['payment_method_token' => 'tok_sim_decline'],
            );
            self::fail('a 402 card_declined was accepted');
        } catch (CardException $e) {
            $intent = $e->getPaymentIntent();
        }
        self::assertSame(PaymentIntent::STATUS_FAILED, $intent?->status);
        $failure = $intent->lastPaymentError;
        self::assertInstanceOf(LastPaymentError::class, $failure);
        self::assertSame(LastPaymentError::CODE_CARD_DECLINED, $failure->code);
        self::assertNull($failure->declineCode);
        self::assertNull($failure->gatewayCode);
        self::assertSame('The card was declined.', $failure->message);
    }

    public function testADeclineCodeAndMembersAddedLaterAreReadAndKept(): void
    {
        $intent = self::fixture('declined-confirm.problem.json')->payment_intent;
        $intent->last_payment_error->decline_code = 'insufficient_funds';
        $intent->last_payment_error->gateway_code = '12';
        $intent->last_payment_error->advice = 'try_later';
        $server = $this->server([ScriptedServer::json(200, $intent)]);
        $read = $this->client($server->baseUrl)->paymentIntents->retrieve($intent->id);
        self::assertSame('insufficient_funds', $read->lastPaymentError?->declineCode);
        self::assertSame('12', $read->lastPaymentError->gatewayCode);
        self::assertContains($read->lastPaymentError->declineCode, LastPaymentError::DECLINE_CODES);
        self::assertSame('try_later', $read->lastPaymentError->advice);
        self::assertEquals($intent, json_decode((string) json_encode($read)));
    }

    public function testAnIntentThatDidNotFailOrPredatesTheFieldHasNone(): void
    {
        $notFailed = json_decode((string) json_encode(self::intentBody(['last_payment_error' => null])));
        self::assertNull(PaymentIntent::fromJson($notFailed)->lastPaymentError);
        $older = json_decode((string) json_encode(self::intentBody()));
        self::assertNull(PaymentIntent::fromJson($older)->lastPaymentError);
    }

    public function testAMalformedFailureIsRefusedNotMisread(): void
    {
        $intent = self::fixture('declined-confirm.problem.json')->payment_intent;
        $intent->last_payment_error->code = 7;
        $this->expectException(\UnexpectedValueException::class);
        PaymentIntent::fromJson($intent);
    }

    public function testTheRecordedPaymentIntentFailedEventCarriesTheTypedFailure(): void
    {
        $event = self::construct(self::fixtureText('payment-intent-failed.event.json'));
        self::assertSame('payment_intent.failed', $event->type);
        self::assertTrue($event->isKnownType());
        $intent = $event->getObject();
        self::assertInstanceOf(PaymentIntent::class, $intent);
        self::assertSame('card_declined', $intent->lastPaymentError?->code);
        self::assertNull($intent->lastPaymentError->declineCode);
        self::assertSame('The card was declined.', $intent->lastPaymentError->message);
    }

    public function testLateCaptureRefundedIsAKnownEventCarryingTheIntent(): void
    {
        $event = self::construct(self::fixtureText('payment-intent-late-capture-refunded.event.json'));
        self::assertSame('payment_intent.late_capture_refunded', $event->type);
        self::assertTrue($event->isKnownType());
        $intent = $event->getObject();
        self::assertInstanceOf(PaymentIntent::class, $intent);
        self::assertSame(PaymentIntent::STATUS_FAILED, $intent->status);
    }
}
