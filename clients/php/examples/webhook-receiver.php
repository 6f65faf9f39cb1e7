<?php

// A plain-PHP webhook receiver for Paygate (no framework), following the five receiver steps:
// raw body, verify, deduplicate atomically by event id, answer 2xx fast, ignore unknown types.
//
//   PAYGATE_WEBHOOK_SECRETS=whsec_... php -S 127.0.0.1:8000 examples/webhook-receiver.php
//
// PAYGATE_WEBHOOK_SECRETS holds the endpoint's secret (two, comma-separated, during a rotation);
// PAYGATE_WEBHOOK_INBOX is the folder where verified events wait for your worker.

declare(strict_types=1);

require __DIR__ . '/../vendor/autoload.php';

use Paygate\Exception\InvalidPayloadException;
use Paygate\Exception\SignatureVerificationException;
use Paygate\Webhook;

// 1. The raw bytes, before any parser touches them (never $_POST, never a re-encoded array).
$payload = (string) file_get_contents('php://input');
$header = $_SERVER['HTTP_SERVICE_SIGNATURE'] ?? '';
$secrets = array_values(array_filter(explode(',', (string) getenv('PAYGATE_WEBHOOK_SECRETS'))));

// 2. Verify. A failure is answered 400; the body is never written to a log.
try {
    $event = Webhook::constructEvent($payload, $header, $secrets);
} catch (SignatureVerificationException | InvalidPayloadException $e) {
    error_log('Paygate webhook rejected: ' . $e->getMessage());
    http_response_code(400);
    exit;
}

// 3. Deduplicate by event id, atomically: link() fails when the id is already in the inbox, so a
//    redelivery (delivery is at-least-once) is acknowledged without being processed twice. With a
//    database, an INSERT into a table whose primary key is the event id does the same.
$inbox = (string) (getenv('PAYGATE_WEBHOOK_INBOX') ?: sys_get_temp_dir() . '/paygate-inbox');
if (!is_dir($inbox) && !@mkdir($inbox, 0700, true) && !is_dir($inbox)) {
    http_response_code(500); // Paygate retries later
    exit;
}
$pending = (string) tempnam($inbox, '.incoming-');
file_put_contents($pending, $event->toJson());
$isNew = @link($pending, "{$inbox}/{$event->id}.json");
unlink($pending);

// 4. Answer 2xx at once; a worker reads the inbox and does the slow work (emails, fulfilment).
//    5. Unknown types ($event->isKnownType() === false) are stored and ignored by the worker.
http_response_code(200);
header('Content-Type: application/json');
echo json_encode(['received' => true, 'duplicate' => !$isNew]);
