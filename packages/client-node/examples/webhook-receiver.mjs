// A Paygate webhook receiver on Node's own HTTP server (no framework), in your project:
//
//   PAYGATE_WEBHOOK_SECRETS=whsec_... node webhook-receiver.mjs
//
// Register http://<host>:8000/webhooks/paygate in the back office (HTTPS in live mode).
// PAYGATE_WEBHOOK_SECRETS holds the endpoint's secret (two, comma-separated, during a rotation);
// PAYGATE_WEBHOOK_INBOX is the folder where verified events wait for your worker; PORT the port.
// It answers 2xx only once the event is on disk (written, flushed and linked under its id);
// anything else is a 500, and Paygate delivers the event again later.
import { randomUUID } from 'node:crypto';
import { link, mkdir, open, unlink } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { constructEvent, InvalidPayloadError, WebhookSignatureError } from '@paygate/node';

const secrets = (process.env.PAYGATE_WEBHOOK_SECRETS ?? '').split(',').filter(Boolean);
const inbox = process.env.PAYGATE_WEBHOOK_INBOX ?? 'paygate-inbox';

/** Writes a file and flushes it to the disk before closing it. */
async function writeDurably(path, data, flags) {
  const file = await open(path, flags);
  try {
    await file.writeFile(data);
    await file.sync();
  } finally {
    await file.close();
  }
}

/**
 * 3. Stores the event once, durably, under its id; throws when it cannot. link() is atomic and
 * fails with EEXIST when the id is already there (a redelivery: delivery is at least once). With a
 * database: INSERT into a table whose primary key is the event id.
 */
async function store(event) {
  await mkdir(inbox, { recursive: true, mode: 0o700 });
  const pending = join(inbox, `.incoming-${randomUUID()}`);
  await writeDurably(pending, JSON.stringify(event), 'wx');
  try {
    await link(pending, join(inbox, `${event.id}.json`));
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
  } finally {
    await unlink(pending);
  }
  const folder = await open(inbox, 'r'); // the new name is durable once the folder is synced
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

const server = createServer(async (request, response) => {
  if (request.method !== 'POST' || request.url !== '/webhooks/paygate') {
    response.writeHead(404).end();
    return;
  }
  // 1. The raw bytes, before any JSON parser touches them (re-serialised JSON breaks the signature).
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  let event;
  try {
    // 2. Verify: throws, never returns false. The body itself is never logged.
    event = constructEvent(Buffer.concat(chunks), request.headers['service-signature'], secrets);
  } catch (error) {
    if (!(error instanceof WebhookSignatureError || error instanceof InvalidPayloadError)) throw error;
    console.error(`webhook refused: ${error.message}`);
    response.writeHead(400).end();
    return;
  }
  try {
    await store(event);
  } catch (error) {
    console.error(`webhook ${event.id} not stored (${error.message}): answered 500, Paygate retries`);
    response.writeHead(500).end();
    return;
  }
  // 4. Answer 2xx at once; a worker reads the inbox and does the slow work. 5. It ignores event
  //    types this version does not know (isKnownEvent(event) === false).
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
});
server.listen(Number(process.env.PORT ?? 8000), '127.0.0.1');
