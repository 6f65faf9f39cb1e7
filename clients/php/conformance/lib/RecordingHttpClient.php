<?php

declare(strict_types=1);

namespace Paygate\Conformance;

use Paygate\Http\CurlHttpClient;
use Paygate\Http\HttpClient;
use Paygate\Http\HttpRequest;
use Paygate\Http\HttpResponse;

/**
 * Sends through the client's own curl transport and counts every attempt, including those
 * refused before anything was sent, through the client's documented 'http_client' option.
 */
final class RecordingHttpClient implements HttpClient
{
    public int $attempts = 0;
    public ?string $lastUserAgent = null;
    private readonly CurlHttpClient $inner;

    public function __construct()
    {
        $this->inner = new CurlHttpClient();
    }

    public function send(HttpRequest $request): HttpResponse
    {
        $this->attempts++;
        $this->lastUserAgent = $request->header('User-Agent');
        return $this->inner->send($request);
    }
}
