<?php

declare(strict_types=1);

namespace Paygate\Resource;

/**
 * A verified webhook event. Deduplicate on $id (stable across redeliveries); act on the status
 * inside getObject(), not on the order of arrival; acknowledge and ignore unknown types.
 */
final class Event extends ApiResource
{
    public const KNOWN_TYPES = EventTypes::KNOWN;

    public readonly string $id;
    public readonly string $type;
    public readonly string $created;
    public readonly bool $livemode;
    /** data.object exactly as received. */
    public readonly \stdClass $dataObject;

    public static function fromJson(\stdClass $values): static
    {
        $event = new static($values);
        $event->id = Fields::string($values, 'id');
        $event->type = Fields::string($values, 'type');
        $event->created = Fields::string($values, 'created');
        $livemode = Fields::optionalBool($values, 'livemode');
        $data = Fields::optionalObject($values, 'data');
        $object = $data === null ? null : Fields::optionalObject($data, 'object');
        if ($livemode === null || $object === null) {
            throw new \UnexpectedValueException('livemode or data.object is missing');
        }
        $event->livemode = $livemode;
        $event->dataObject = $object;
        return $event;
    }

    /** True for the event types this client version knows; acknowledge the others and ignore them. */
    public function isKnownType(): bool
    {
        return in_array($this->type, self::KNOWN_TYPES, true);
    }

    /**
     * data.object as a typed resource: a PaymentIntent for payment_intent.* events, a Refund for
     * refund.* events, a Dispute for dispute.* events, a Customer for customer.* events, a
     * SavedPaymentMethod for saved_payment_method.* events, null for a type this client version does
     * not know.
     *
     * @throws \UnexpectedValueException when data.object lacks its id or integer amount_minor
     */
    public function getObject(): PaymentIntent|Refund|Dispute|Customer|SavedPaymentMethod|null
    {
        if (!$this->isKnownType()) {
            return null;
        }
        if (str_starts_with($this->type, 'customer.')) {
            return Customer::fromJson($this->dataObject);
        }
        if (str_starts_with($this->type, 'saved_payment_method.')) {
            return SavedPaymentMethod::fromJson($this->dataObject);
        }
        if (str_starts_with($this->type, 'dispute.')) {
            return Dispute::fromJson($this->dataObject);
        }
        return str_starts_with($this->type, 'refund.')
            ? Refund::fromJson($this->dataObject)
            : PaymentIntent::fromJson($this->dataObject);
    }
}
