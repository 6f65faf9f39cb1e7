<?php

declare(strict_types=1);

namespace Paygate\Tests\Unit;

use Paygate\Resource\ApiResource;
use Paygate\Resource\Customer;
use Paygate\Resource\Dispute;
use Paygate\Resource\Event;
use Paygate\Resource\LastPaymentError;
use Paygate\Resource\PaymentIntent;
use Paygate\Resource\Refund;
use Paygate\Resource\SavedPaymentMethod;
use Paygate\Resource\Transaction;
use Paygate\Tests\Support\TestCase;

/**
 * Every field and event type of the contract (clients/conformance/fixtures/contract-shapes.json,
 * generated from packages/contract) has a typed property here: a field added to the contract and
 * not to this client fails this test.
 */
final class ContractShapesTest extends TestCase
{
    private const CLASSES = [
        'payment_intent' => PaymentIntent::class,
        'last_payment_error' => LastPaymentError::class,
        'refund' => Refund::class,
        'transaction' => Transaction::class,
        'dispute' => Dispute::class,
        'customer' => Customer::class,
        'saved_payment_method' => SavedPaymentMethod::class,
        'event' => Event::class,
    ];
    /** Fields kept in the object as received (readable by API name) but without a typed property, and why. */
    private const UNTYPED = [
        'payment_intent.object' => 'a constant naming the class itself',
        'payment_intent.payment_method' => 'always null in /v1: no card metadata is ever captured',
        'payment_intent.checkout' => 'answered only to a publishable key, which this server-side client refuses',
        'refund.object' => 'a constant naming the class itself',
        'transaction.object' => 'a constant naming the class itself',
        'dispute.object' => 'a constant naming the class itself',
        'customer.object' => 'a constant naming the class itself',
        'saved_payment_method.object' => 'a constant naming the class itself',
        'event.object' => 'a constant naming the class itself',
    ];
    /** Properties whose name is not the camelCase of the field. */
    private const RENAMED = ['event.data' => 'dataObject'];
    private const PHP_TYPES = [
        'string' => 'string',
        'integer' => 'int',
        'boolean' => 'bool',
        'object' => \stdClass::class,
    ];

    private static function property(string $resource, string $field): string
    {
        return self::RENAMED["{$resource}.{$field}"]
            ?? lcfirst(str_replace('_', '', ucwords($field, '_')));
    }

    public function testEveryResourceOfTheContractHasAClass(): void
    {
        $shapes = self::fixture('contract-shapes.json');
        self::assertEqualsCanonicalizing(array_keys(self::CLASSES), array_keys(get_object_vars($shapes->resources)));
    }

    public function testEveryFieldOfTheContractIsATypedPropertyOfTheContractsType(): void
    {
        $shapes = self::fixture('contract-shapes.json');
        foreach (get_object_vars($shapes->resources) as $resource => $fields) {
            foreach (get_object_vars($fields) as $field => $contractType) {
                if (isset(self::UNTYPED["{$resource}.{$field}"])) {
                    continue;
                }
                $class = self::CLASSES[$resource];
                $name = self::property($resource, $field);
                self::assertTrue(property_exists($class, $name), "{$class}::\${$name} is missing ({$field})");
                $type = (new \ReflectionProperty($class, $name))->getType();
                self::assertInstanceOf(\ReflectionNamedType::class, $type, "{$class}::\${$name} is typed");
                $base = explode('|', rtrim($contractType, '?'))[0];
                $expected = self::CLASSES[$base] ?? self::PHP_TYPES[$base];
                self::assertSame($expected, $type->getName(), "{$class}::\${$name} is {$contractType}");
                if (str_contains($contractType, 'null')) {
                    self::assertTrue($type->allowsNull(), "{$class}::\${$name} is nullable, as {$contractType}");
                }
            }
        }
    }

    public function testTheKnownEventTypesAreTheContracts(): void
    {
        $shapes = self::fixture('contract-shapes.json');
        self::assertEqualsCanonicalizing(array_keys(get_object_vars($shapes->event_types)), Event::KNOWN_TYPES);
    }

    public function testEachEventTypeCarriesTheResourceTheContractNames(): void
    {
        $shapes = self::fixture('contract-shapes.json');
        foreach (get_object_vars($shapes->event_types) as $type => $objectName) {
            $envelope = self::fixture('payment-intent-failed.event.json');
            $envelope->type = $type;
            if ($objectName === 'refund') {
                $envelope->data->object = (object) ['id' => 're_1', 'object' => 'refund', 'amount_minor' => 1];
            }
            if ($objectName === 'dispute') {
                $envelope->data->object = (object) ['id' => 'dp_1', 'object' => 'dispute', 'amount_minor' => 1];
            }
            if ($objectName === 'customer') {
                $envelope->data->object = (object) ['id' => 'cus_1', 'object' => 'customer', 'deleted' => false];
            }
            if ($objectName === 'saved_payment_method') {
                $envelope->data->object = (object) [
                    'id' => 'spm_1',
                    'object' => 'saved_payment_method',
                    'status' => 'active',
                ];
            }
            $object = Event::fromJson($envelope)->getObject();
            self::assertInstanceOf(ApiResource::class, $object);
            self::assertSame(self::CLASSES[$objectName], $object::class, $type);
        }
    }
}
