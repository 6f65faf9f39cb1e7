<?php

declare(strict_types=1);

namespace Paygate\Resource;

use Paygate\Json;

/**
 * A resource as the API returned it: typed camelCase properties for the documented fields, and
 * every member, documented or not, by its API name ($intent->amount_minor, $intent->checkout).
 * json_encode($resource) writes the members back exactly as received.
 */
abstract class ApiResource implements \JsonSerializable
{
    private ?ResponseInfo $lastResponse = null;

    protected function __construct(private readonly \stdClass $values)
    {
    }

    /**
     * Builds the resource from a decoded JSON object.
     *
     * @throws \UnexpectedValueException when a documented member has the wrong type
     */
    abstract public static function fromJson(\stdClass $values): static;

    /** A member by its API name; null when absent. Objects are \stdClass, lists are arrays. */
    public function __get(string $name): mixed
    {
        return $this->values->{$name} ?? null;
    }

    public function __isset(string $name): bool
    {
        return isset($this->values->{$name});
    }

    /** A deep copy of every member as received. */
    public function toStdClass(): \stdClass
    {
        $copy = Json::decode(Json::encode($this->values));
        assert($copy instanceof \stdClass);
        return $copy;
    }

    public function toJson(): string
    {
        return Json::encode($this->values);
    }

    public function jsonSerialize(): \stdClass
    {
        return $this->values;
    }

    /** The HTTP response that carried this resource (request id, idempotency key, replay flag). */
    public function getLastResponse(): ?ResponseInfo
    {
        return $this->lastResponse;
    }

    /** The Idempotency-Key the create was sent with (yours, or the one the client made). */
    public function getIdempotencyKey(): ?string
    {
        return $this->lastResponse?->idempotencyKey;
    }

    /**
     * @internal
     */
    public function setLastResponse(ResponseInfo $info): void
    {
        $this->lastResponse = $info;
    }
}
