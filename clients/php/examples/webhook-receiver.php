<?php

// A plain-PHP webhook receiver for Paygate (no framework), in your project next to vendor/:
//
//   PAYGATE_WEBHOOK_SECRETS=whsec_... php -S 127.0.0.1:8000 webhook-receiver.php
//
// PAYGATE_WEBHOOK_SECRETS holds the endpoint's secret (two, comma-separated, during a rotation);
// PAYGATE_WEBHOOK_INBOX is the folder where verified events wait for your worker. It answers 2xx
// only once the event is on disk (written, flushed and linked under its id); anything else is a
// 500, and Paygate delivers the event again later.

declare(strict_types=1);

require __DIR__ . '/vendor/autoload.php';

use Paygate\Exception\InvalidPayloadException;
use Paygate\Exception\SignatureVerificationException;
use Paygate\Resource\Event;
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

// 3. Store the event once, durably, under its id: true when it is on disk (now or from an earlier
//    delivery; delivery is at least once), false when it could not be stored. link() is atomic and
//    fails when the id is already there. With a database: INSERT into a table keyed by the event id.
$storeInInbox = static function (string $inbox, Event $event): bool {
    if (!is_dir($inbox) && !@mkdir($inbox, 0700, true) && !is_dir($inbox)) {
        return false;
    }
    $final = "{$inbox}/{$event->id}.json";
    $pending = "{$inbox}/.incoming-" . bin2hex(random_bytes(8));
    $file = @fopen($pending, 'xb');
    if ($file === false) {
        return false;
    }
    $json = $event->toJson();
    $written = fwrite($file, $json) === strlen($json) && fflush($file) && fsync($file);
    fclose($file);
    $stored = $written && (@link($pending, $final) || is_file($final));
    @unlink($pending);
    $folder = @fopen($inbox, 'r'); // the new name is durable once the folder itself is synced
    return $stored && $folder !== false && fsync($folder) && fclose($folder);
};

$inbox = (string) (getenv('PAYGATE_WEBHOOK_INBOX') ?: __DIR__ . '/paygate-inbox');
if (!$storeInInbox($inbox, $event)) {
    error_log("Paygate webhook {$event->id} not stored in {$inbox}: answered 500, Paygate retries");
    http_response_code(500);
    exit;
}

// 4. Answer 2xx at once; a worker reads the inbox and does the slow work (emails, fulfilment).
//    5. Unknown types ($event->isKnownType() === false) are stored and ignored by the worker.
http_response_code(200);
header('Content-Type: application/json');
echo json_encode(['received' => true]);
