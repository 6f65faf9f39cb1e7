<?php

declare(strict_types=1);

namespace Paygate\Tests\Unit;

use Paygate\Exception\InvalidPayloadException;
use Paygate\Exception\SignatureVerificationException;
use Paygate\Webhook;
use PHPUnit\Framework\TestCase;

/**
 * The shared vectors every Paygate client in every language must pass (packages/contract/vectors).
 */
final class WebhookVectorsTest extends TestCase
{
    private const FILE = __DIR__ . '/../../../../packages/contract/vectors/webhook-signatures.json';

    /**
     * @return array<string, mixed>
     */
    private static function vectors(): array
    {
        return json_decode((string) file_get_contents(self::FILE), true, 512, JSON_THROW_ON_ERROR);
    }

    /**
     * @return array<string, array{array<string, mixed>, int}>
     */
    public static function cases(): array
    {
        $vectors = self::vectors();
        $cases = [];
        foreach ($vectors['cases'] as $case) {
            $cases[$case['name']] = [$case, $vectors['tolerance_seconds']];
        }
        return $cases;
    }

    public function testTheVectorsHoldEveryOutcome(): void
    {
        $outcomes = array_unique(array_map(static fn (array $c) => $c['error'] ?? 'valid', self::vectors()['cases']));
        $expected = ['valid', 'no_matching_signature', 'timestamp_outside_tolerance', 'malformed_header',
            'invalid_payload'];
        foreach ($expected as $outcome) {
            self::assertContains($outcome, $outcomes);
        }
    }

    /**
     * @dataProvider cases
     * @param array<string, mixed> $case
     */
    public function testVector(array $case, int $tolerance): void
    {
        $verify = static fn () => Webhook::constructEvent(
            $case['raw_body'],
            $case['header'],
            $case['secrets'],
            $tolerance,
            $case['now'],
        );
        if ($case['valid']) {
            self::assertNull($case['error']);
            $event = $verify();
            self::assertSame(
                json_encode(json_decode($case['raw_body'])),
                json_encode($event),
            );
            return;
        }
        try {
            $verify();
            self::fail('accepted an invalid delivery');
        } catch (InvalidPayloadException $e) {
            self::assertSame('invalid_payload', $case['error']);
        } catch (SignatureVerificationException $e) {
            self::assertSame($case['error'], $e->getReason());
        }
    }
}
