<?php

declare(strict_types=1);

namespace Paygate\Service;

use Paygate\Exception\ConfigurationException;
use Paygate\RequestSender;
use Paygate\Resource\ApiResource;
use Paygate\Resource\ResponseInfo;

/**
 * @internal
 */
abstract class AbstractService
{
    public function __construct(protected readonly RequestSender $sender)
    {
    }

    /** A path segment for a resource id; an empty id would silently hit another route. */
    protected static function idSegment(string $id, string $what): string
    {
        if ($id === '') {
            throw new ConfigurationException("{$what} must be a non-empty string");
        }
        return rawurlencode($id);
    }

    /**
     * @template T of ApiResource
     * @param class-string<T> $class
     * @param array{0: \stdClass, 1: ResponseInfo} $response
     * @return T
     */
    protected function resource(string $class, array $response): ApiResource
    {
        [$body, $info] = $response;
        try {
            $resource = $class::fromJson($body);
        } catch (\UnexpectedValueException $e) {
            throw $this->sender->unexpected(
                $info,
                $info->idempotencyKey,
                'The response is not a resource: ' . $e->getMessage(),
            );
        }
        $resource->setLastResponse($info);
        return $resource;
    }
}
