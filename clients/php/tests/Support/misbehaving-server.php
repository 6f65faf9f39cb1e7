<?php

// A deliberately misbehaving HTTP/1.1 server for the client's tests. It plays a scenario, one
// action per connection, and logs every request it read as a JSON line.
//
// Usage: php misbehaving-server.php <port or 0> <scenario.json> <requests.jsonl>
// Actions: {"status", "headers", "body", "delay_ms"} answers after delay_ms;
// {"drop": "before_read"} closes the connection without reading; {"drop": "after_read"} reads the
// request, then closes without answering. Prints "LISTENING <port>" once ready.

declare(strict_types=1);

[, $port, $scenarioFile, $logFile] = $argv;
$actions = json_decode((string) file_get_contents($scenarioFile), true, 512, JSON_THROW_ON_ERROR);
$server = stream_socket_server("tcp://127.0.0.1:{$port}", $errno, $error);
if ($server === false) {
    fwrite(STDERR, "cannot listen: {$error}\n");
    exit(1);
}
$name = (string) stream_socket_get_name($server, false);
fwrite(STDOUT, 'LISTENING ' . substr($name, strrpos($name, ':') + 1) . "\n");
fflush(STDOUT);

/**
 * Waits before answering, but stops early once the client hung up (its time-out), so the next
 * connection of the scenario is not kept waiting behind this one.
 *
 * @param resource $connection
 */
$stall = static function ($connection, int $milliseconds): void {
    stream_set_blocking($connection, false);
    $deadline = hrtime(true) + $milliseconds * 1_000_000;
    while (hrtime(true) < $deadline) {
        $read = [$connection];
        $none = null;
        $ready = stream_select($read, $none, $none, 0, 10_000) === 1;
        if ($ready && fread($connection, 1) === '' && feof($connection)) {
            return;
        }
    }
    stream_set_blocking($connection, true);
};

/**
 * @param resource $connection
 * @return array<string, mixed>|null
 */
$readRequest = static function ($connection): ?array {
    $raw = '';
    while (!str_contains($raw, "\r\n\r\n")) {
        $chunk = fread($connection, 8192);
        if ($chunk === false || $chunk === '') {
            return null;
        }
        $raw .= $chunk;
    }
    [$head, $body] = explode("\r\n\r\n", $raw, 2);
    $lines = explode("\r\n", $head);
    [$method, $target] = explode(' ', array_shift($lines));
    $headers = [];
    foreach ($lines as $line) {
        [$name, $value] = explode(':', $line, 2);
        $headers[strtolower(trim($name))] = trim($value);
    }
    $length = (int) ($headers['content-length'] ?? 0);
    while (strlen($body) < $length) {
        $chunk = fread($connection, $length - strlen($body));
        if ($chunk === false || $chunk === '') {
            break;
        }
        $body .= $chunk;
    }
    return ['method' => $method, 'target' => $target, 'headers' => $headers, 'body' => $body];
};

$index = 0;
$parent = function_exists('posix_getppid') ? posix_getppid() : null;
while (true) {
    $connection = @stream_socket_accept($server, 1);
    if ($connection === false) {
        // Ends with its test run, also when that run died without stopping it.
        if ($parent !== null && posix_getppid() !== $parent) {
            exit(0);
        }
        continue;
    }
    $action = $actions[$index++] ?? [
        'status' => 418,
        'headers' => ['Content-Type' => 'application/problem+json'],
        'body' => '{"code":"unexpected_test_request","status":418}',
    ];
    if (($action['drop'] ?? null) === 'before_read') {
        fclose($connection);
        continue;
    }
    $request = $readRequest($connection);
    if ($request !== null) {
        file_put_contents($logFile, json_encode($request, JSON_UNESCAPED_SLASHES) . "\n", FILE_APPEND | LOCK_EX);
    }
    if (($action['drop'] ?? null) === 'after_read') {
        fclose($connection);
        continue;
    }
    $stall($connection, (int) ($action['delay_ms'] ?? 0));
    $body = $action['body'] ?? '';
    $head = "HTTP/1.1 {$action['status']} Scripted\r\nContent-Length: " . strlen($body) . "\r\nConnection: close\r\n";
    foreach ($action['headers'] ?? [] as $header => $value) {
        $head .= "{$header}: {$value}\r\n";
    }
    @fwrite($connection, $head . "\r\n" . $body);
    fclose($connection);
}
