<?php

declare(strict_types=1);

namespace Paygate\Http;

/**
 * HttpClient on ext-curl. One handle per client, so connections are kept alive and reused.
 */
final class CurlHttpClient implements HttpClient
{
    /** curl errors raised before a single byte of the request was written. */
    private const NOT_SENT_ERRORS = [
        CURLE_COULDNT_RESOLVE_PROXY,
        CURLE_COULDNT_RESOLVE_HOST,
        CURLE_COULDNT_CONNECT,
    ];

    private ?\CurlHandle $handle = null;

    public function send(HttpRequest $request): HttpResponse
    {
        $handle = $this->handle();
        $headers = [];
        $headerLines = ['Expect:'];
        foreach ($request->headers as $name => $value) {
            $headerLines[] = "{$name}: {$value}";
        }
        $timeoutMs = max(1, (int) ceil($request->timeoutSeconds * 1000));
        $options = [
            CURLOPT_URL => $request->url,
            CURLOPT_CUSTOMREQUEST => $request->method,
            CURLOPT_HTTPHEADER => $headerLines,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
            // The time-out covers connect, request and the whole body: a stalled body is as dead
            // as a silent server. NOSIGNAL makes sub-second time-outs work.
            CURLOPT_TIMEOUT_MS => $timeoutMs,
            CURLOPT_CONNECTTIMEOUT_MS => $timeoutMs,
            CURLOPT_NOSIGNAL => true,
            CURLOPT_HEADERFUNCTION => static function ($curl, string $line) use (&$headers): int {
                $trimmed = trim($line);
                if (str_starts_with($trimmed, 'HTTP/')) {
                    $headers = []; // a new status line (after 100 Continue): start over
                } elseif ($trimmed !== '' && str_contains($trimmed, ':')) {
                    [$name, $value] = explode(':', $trimmed, 2);
                    $headers[strtolower(trim($name))] = trim($value);
                }
                return strlen($line);
            },
        ];
        if ($request->method === 'GET') {
            $options[CURLOPT_HTTPGET] = true;
        } elseif ($request->body !== null) {
            $options[CURLOPT_POSTFIELDS] = $request->body;
        }
        curl_setopt_array($handle, $options);
        $body = curl_exec($handle);
        if ($body === false || !is_string($body)) {
            $errno = curl_errno($handle);
            $message = sprintf('curl error %d: %s', $errno, curl_error($handle));
            throw new TransportException($message, $this->notSent($handle, $errno));
        }
        $status = (int) curl_getinfo($handle, CURLINFO_RESPONSE_CODE);
        return new HttpResponse($status, $headers, $body);
    }

    private function notSent(\CurlHandle $handle, int $errno): bool
    {
        if (in_array($errno, self::NOT_SENT_ERRORS, true)) {
            return true;
        }
        // A time-out while connecting: nothing was written yet.
        return $errno === CURLE_OPERATION_TIMEDOUT
            && (int) curl_getinfo($handle, CURLINFO_REQUEST_SIZE) === 0
            && (float) curl_getinfo($handle, CURLINFO_CONNECT_TIME) === 0.0;
    }

    private function handle(): \CurlHandle
    {
        if ($this->handle === null) {
            $handle = curl_init();
            if ($handle === false) {
                throw new TransportException('curl_init failed', true);
            }
            $this->handle = $handle;
        } else {
            // Clears the options of the last request but keeps the connection cache.
            curl_reset($this->handle);
        }
        return $this->handle;
    }
}
