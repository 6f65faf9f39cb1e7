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
     * Every item of a cursor list, page by page as the caller iterates: follows next_cursor while
     * has_more is true; each page is one GET, retried like any.
     *
     * @template T of ApiResource
     * @param class-string<T> $class
     * @param array<string, string|int> $query
     * @return \Generator<int, T>
     */
    protected function pages(string $class, string $path, array $query, string $what): \Generator
    {
        $cursor = null;
        do {
            $pageQuery = $cursor === null ? $query : $query + ['cursor' => $cursor];
            [$page, $info] = $this->sender->request('GET', $path, $pageQuery);
            $data = $page->data ?? null;
            if (!is_array($data) || !is_bool($page->has_more ?? null)) {
                throw $this->sender->unexpected($info, null, "The response is not a {$what} page");
            }
            foreach ($data as $item) {
                if (!$item instanceof \stdClass) {
                    throw $this->sender->unexpected($info, null, "A {$what} is not an object");
                }
                yield $this->resource($class, [$item, $info]);
            }
            $next = $page->next_cursor ?? null;
            // A page that claims more but gives no cursor ends the walk rather than looping forever.
            $cursor = ($page->has_more && is_string($next) && $next !== '') ? $next : null;
        } while ($cursor !== null);
    }

    /**
     * A list's query from the caller's filters: only the named ones, strings or integers.
     *
     * @param array<mixed> $params
     * @param list<string> $filters
     * @return array<string, string|int>
     */
    protected static function listQuery(array $params, array $filters, string $what): array
    {
        $query = [];
        foreach ($params as $name => $value) {
            if (!in_array($name, $filters, true)) {
                throw new ConfigurationException(
                    "Unknown {$what} filter {$name}; the filters are " . implode(', ', $filters),
                );
            }
            if ($value === null) {
                continue;
            }
            if (!is_string($value) && !is_int($value)) {
                throw new ConfigurationException("{$name} must be a string or an integer");
            }
            $query[(string) $name] = $value;
        }
        return $query;
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
