<?php

declare(strict_types=1);

namespace Paygate\Tests\Unit;

use Paygate\Exception\ConfigurationException;
use Paygate\Exception\InvalidPayloadException;
use Paygate\Exception\PaygateException;
use Paygate\Exception\SignatureVerificationException;
use Paygate\Resource\PaymentIntent;
use Paygate\Resource\Refund;
use Paygate\Webhook;
use PHPUnit\Framework\TestCase;

final class WebhookTest extends TestCase
{
    private const SECRET = 'whsec_current0123456789';
    private const OLD_SECRET = 'whsec_previous0123456789';
    private const T = 1767225600;

    private static function payload(string $type = 'payment_intent.succeeded', string $object = ''): string
    {
        $object = $object !== '' ? $object : '{"id":"pi_1","object":"payment_intent","amount_minor":999999999999,'
            . '"status":"SUCCEEDED","metadata":{},"payment_method":null}';
        return '{"id":"evt_1a2B3c4D5e6F7g8H9i0J1k2L","object":"event","type":"' . $type . '",'
            . '"created":"2026-01-01T00:00:00.000Z","livemode":false,"data":{"object":' . $object . '}}';
    }

    private static function reason(callable $verify): string
    {
        try {
            $verify();
        } catch (SignatureVerificationException $e) {
            self::assertInstanceOf(PaygateException::class, $e);
            return $e->getReason();
        }
        self::fail('accepted');
    }

    public function testReturnsTheEventWithATypedObject(): void
    {
        $payload = self::payload();
        $header = Webhook::generateTestHeader($payload, self::SECRET, self::T);
        $event = Webhook::constructEvent($payload, $header, [self::SECRET], 300, self::T);
        self::assertSame('evt_1a2B3c4D5e6F7g8H9i0J1k2L', $event->id);
        self::assertSame('payment_intent.succeeded', $event->type);
        self::assertFalse($event->livemode);
        $intent = $event->getObject();
        self::assertInstanceOf(PaymentIntent::class, $intent);
        self::assertSame(999999999999, $intent->amountMinor);
        self::assertSame($payload, json_encode($event));
    }

    public function testARefundEventCarriesARefundAndAnUnknownTypeIsIgnorableNotAnError(): void
    {
        $refundPayload = self::payload('refund.succeeded', '{"id":"re_1","object":"refund","amount_minor":5}');
        $header = Webhook::generateTestHeader($refundPayload, self::SECRET, self::T);
        $refund = Webhook::constructEvent($refundPayload, $header, [self::SECRET], 300, self::T)->getObject();
        self::assertInstanceOf(Refund::class, $refund);

        $newPayload = self::payload('payout.paid', '{"id":"po_1"}');
        $header = Webhook::generateTestHeader($newPayload, self::SECRET, self::T);
        $event = Webhook::constructEvent($newPayload, $header, [self::SECRET], 300, self::T);
        self::assertFalse($event->isKnownType());
        self::assertNull($event->getObject());
    }

    public function testDuringARotationAnyV1MatchingAnySecretVerifies(): void
    {
        $payload = self::payload();
        $both = Webhook::generateTestHeader($payload, [self::OLD_SECRET, self::SECRET], self::T);
        self::assertSame(2, substr_count($both, 'v1='));
        // The receiver that deployed only the new secret, only the old one, or both.
        foreach ([[self::SECRET], [self::OLD_SECRET], [self::OLD_SECRET, self::SECRET]] as $secrets) {
            Webhook::constructEvent($payload, $both, $secrets, 300, self::T);
        }
        // A forged first candidate does not stop the search (no short-circuit on mismatch).
        $valid = explode(',', Webhook::generateTestHeader($payload, self::SECRET, self::T))[1];
        $forged = 't=' . self::T . ',v1=' . str_repeat('0', 64) . ',v1=zz,' . $valid;
        $event = Webhook::constructEvent($payload, $forged, [self::SECRET], 300, self::T);
        self::assertSame('payment_intent.succeeded', $event->type);
        self::addToAssertionCount(3);
    }

    public function testRejectsTimestampsBeyondTheToleranceInBothDirections(): void
    {
        $payload = self::payload();
        $header = Webhook::generateTestHeader($payload, self::SECRET, self::T);
        Webhook::constructEvent($payload, $header, [self::SECRET], 300, self::T + 300);
        Webhook::constructEvent($payload, $header, [self::SECRET], 300, self::T - 300);
        foreach ([self::T + 301, self::T - 301] as $now) {
            self::assertSame('timestamp_outside_tolerance', self::reason(
                static fn () => Webhook::constructEvent($payload, $header, [self::SECRET], 300, $now),
            ));
        }
        self::assertSame('timestamp_outside_tolerance', self::reason(
            static fn () => Webhook::constructEvent($payload, $header, [self::SECRET], 10, self::T + 11),
        ));
    }

    public function testSignsTheTimestampExactlyAsWrittenAndTheRawBytes(): void
    {
        $payload = self::payload();
        $header = Webhook::generateTestHeader($payload, self::SECRET, self::T);
        $reencoded = json_encode(json_decode($payload), JSON_PRETTY_PRINT);
        self::assertSame('no_matching_signature', self::reason(
            static fn () => Webhook::constructEvent((string) $reencoded, $header, [self::SECRET], 300, self::T),
        ));
        // "0" + t is the same number but not the same signed string.
        $padded = str_replace('t=' . self::T, 't=0' . self::T, $header);
        self::assertSame('no_matching_signature', self::reason(
            static fn () => Webhook::constructEvent($payload, $padded, [self::SECRET], 300, self::T),
        ));
        $upper = preg_replace_callback('/v1=([0-9a-f]+)/', static fn ($m) => 'v1=' . strtoupper($m[1]), $header);
        self::assertSame('no_matching_signature', self::reason(
            static fn () => Webhook::constructEvent($payload, (string) $upper, [self::SECRET], 300, self::T),
        ));
    }

    public function testMalformedHeaders(): void
    {
        $payload = self::payload();
        $v1 = 'v1=' . str_repeat('a', 64);
        $t = 't=' . self::T;
        foreach (
            ['', '   ', $v1, "{$t},{$t},{$v1}", "t=12x,{$v1}", $t, "{$t},garbage,{$v1}",
            $t . str_repeat(",{$v1}", 17)] as $header
        ) {
            self::assertSame('malformed_header', self::reason(
                static fn () => Webhook::constructEvent($payload, $header, [self::SECRET], 300, self::T),
            ), $header);
        }
    }

    public function testASignedBodyThatIsNotAnEnvelopeIsAnInvalidPayload(): void
    {
        foreach (['[]', 'not json', '{"id":"evt_short","object":"event"}', "\xff\xfe"] as $payload) {
            $header = Webhook::generateTestHeader($payload, self::SECRET, self::T);
            try {
                Webhook::constructEvent($payload, $header, [self::SECRET], 300, self::T);
                self::fail('accepted ' . $payload);
            } catch (InvalidPayloadException $e) {
                self::assertInstanceOf(PaygateException::class, $e);
            }
        }
    }

    public function testRefusesNoSecretsAndANonPositiveTolerance(): void
    {
        $payload = self::payload();
        $header = Webhook::generateTestHeader($payload, self::SECRET, self::T);
        foreach ([[[], 300], [[''], 300], [[self::SECRET], 0], [[self::SECRET], -5]] as [$secrets, $tolerance]) {
            try {
                Webhook::constructEvent($payload, $header, $secrets, $tolerance, self::T);
                self::fail('accepted');
            } catch (ConfigurationException $e) {
                self::assertNotSame('', $e->getMessage());
            }
        }
    }
}
