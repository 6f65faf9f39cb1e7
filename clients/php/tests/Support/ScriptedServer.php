<?php

declare(strict_types=1);

namespace Paygate\Tests\Support;

/**
 * Runs misbehaving-server.php in its own process (the client under test blocks on curl) and
 * reads back what it received.
 */
final class ScriptedServer
{
    public readonly string $baseUrl;

    /**
     * @param resource $process
     */
    private function __construct(
        private $process,
        public readonly int $port,
        private readonly string $logFile,
        private readonly string $scenarioFile,
    ) {
        $this->baseUrl = "http://127.0.0.1:{$port}";
    }

    /**
     * @param list<array<string, mixed>> $actions one per connection, in order
     */
    public static function start(array $actions, int $port = 0): self
    {
        $scenarioFile = (string) tempnam(sys_get_temp_dir(), 'paygate-scenario-');
        $logFile = (string) tempnam(sys_get_temp_dir(), 'paygate-requests-');
        file_put_contents($scenarioFile, json_encode($actions, JSON_THROW_ON_ERROR));
        $command = [PHP_BINARY, __DIR__ . '/misbehaving-server.php', (string) $port, $scenarioFile, $logFile];
        $process = proc_open($command, [1 => ['pipe', 'w'], 2 => STDERR], $pipes);
        if ($process === false) {
            throw new \RuntimeException('cannot start the test server');
        }
        $read = [$pipes[1]];
        $none = null;
        // Waits for the server's own word that it listens, not for a fixed time.
        if (stream_select($read, $none, $none, 30) !== 1) {
            proc_terminate($process);
            throw new \RuntimeException('the test server did not start');
        }
        $line = (string) fgets($pipes[1]);
        if (preg_match('/^LISTENING (\d+)$/', trim($line), $match) !== 1) {
            proc_terminate($process);
            throw new \RuntimeException("the test server said {$line}");
        }
        return new self($process, (int) $match[1], $logFile, $scenarioFile);
    }

    /** A port on which nothing listens. */
    public static function closedPort(): int
    {
        $socket = stream_socket_server('tcp://127.0.0.1:0');
        if ($socket === false) {
            throw new \RuntimeException('cannot find a free port');
        }
        $name = (string) stream_socket_get_name($socket, false);
        fclose($socket);
        return (int) substr($name, strrpos($name, ':') + 1);
    }

    /**
     * The requests the server read, in order.
     *
     * @return list<array{method: string, target: string, headers: array<string, string>, body: string}>
     */
    public function requests(): array
    {
        $requests = [];
        foreach (file($this->logFile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) ?: [] as $line) {
            $requests[] = json_decode($line, true, 512, JSON_THROW_ON_ERROR);
        }
        return $requests;
    }

    public function stop(): void
    {
        proc_terminate($this->process);
        proc_close($this->process);
        @unlink($this->logFile);
        @unlink($this->scenarioFile);
    }

    /**
     * A JSON response action.
     *
     * @param array<string, string> $headers
     * @return array<string, mixed>
     */
    public static function json(int $status, mixed $body, array $headers = []): array
    {
        $type = $status >= 400 ? 'application/problem+json' : 'application/json';
        return [
            'status' => $status,
            'headers' => ['Content-Type' => $type, 'X-Request-Id' => 'req_test_' . $status] + $headers,
            'body' => is_string($body) ? $body : json_encode($body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES),
        ];
    }

    /**
     * A problem document response action.
     *
     * @param array<string, mixed> $extra
     * @param array<string, string> $headers
     * @return array<string, mixed>
     */
    public static function problem(int $status, string $code, array $extra = [], array $headers = []): array
    {
        return self::json($status, [
            'type' => "https://paygate.dev/problems/{$code}",
            'title' => $code,
            'status' => $status,
            'detail' => "detail of {$code}",
            'code' => $code,
            'request_id' => 'req_in_body',
        ] + $extra, $headers);
    }
}
