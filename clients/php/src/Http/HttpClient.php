<?php

declare(strict_types=1);

namespace Paygate\Http;

/**
 * Sends one HTTP attempt. The default is CurlHttpClient; pass your own as the 'http_client' option
 * to observe or decorate attempts in tests (retries and back-off stay in the client).
 */
interface HttpClient
{
    /**
     * @throws TransportException when no complete response arrived
     */
    public function send(HttpRequest $request): HttpResponse;
}
