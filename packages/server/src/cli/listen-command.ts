import { parseArgs } from 'node:util';
import { request } from 'undici';
import { systemClock } from '../clock.ts';
import { ConfigError } from '../config.ts';
import { readText } from '../config-values.ts';
import { generateWebhookSecret, SIGNATURE_HEADER, signPayload } from '../webhooks/signing.ts';

export const DEFAULT_BASE_URL = 'http://localhost:8080';

export interface ListenOptions {
  apiKey: string;
  baseUrl: string;
  forwardTo: string;
  /** Where the session secret and each forward's status are printed. */
  print: (line: string) => void;
  signal?: AbortSignal;
  /** Unix seconds for the signature; the wall clock of the developer's machine by default. */
  nowSeconds?: () => number;
  /** Called once the stream is open (the session is receiving events). */
  onReady?: () => void;
}

export interface ListenSession {
  secret: string;
  /** Resolves when the stream ends (the signal aborted or the service went away). */
  done: Promise<void>;
}

interface ServerSentEvent {
  id: string;
  type: string;
  data: string;
}

/** Splits a Server-Sent Events byte stream into events; comments (`: ...`) are keep-alives. */
async function* serverSentEvents(body: AsyncIterable<Buffer | string>): AsyncGenerator<ServerSentEvent> {
  let buffer = '';
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    let boundary = buffer.indexOf('\n\n');
    while (boundary >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      boundary = buffer.indexOf('\n\n');
      const event: ServerSentEvent = { id: '', type: 'message', data: '' };
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) event.id = line.slice(4);
        else if (line.startsWith('event: ')) event.type = line.slice(7);
        else if (line.startsWith('data: ')) event.data += line.slice(6);
      }
      if (event.data !== '') yield event;
    }
  }
}

/**
 * `paygate listen`: opens the service's test-mode event stream with a secret key and forwards each
 * event to `forwardTo`, signed with a secret made for this session only (printed first, for the
 * local receiver to verify with), printing each forward's HTTP status like `stripe listen`.
 */
export async function startListening(options: ListenOptions): Promise<ListenSession> {
  const secret = generateWebhookSecret();
  // Signatures carry real time: the receiver checks `t` against its own clock.
  const nowSeconds = options.nowSeconds ?? (() => Math.floor(systemClock.now().getTime() / 1000));
  const streamUrl = new URL('/v1/events/stream', options.baseUrl);
  const response = await request(streamUrl, {
    headers: { 'x-api-key': options.apiKey, accept: 'text/event-stream' },
    signal: options.signal,
  });
  if (response.statusCode !== 200) {
    const problem = await response.body.text();
    throw new ConfigError(`the service refused the event stream (${response.statusCode}): ${problem}`);
  }
  options.print(`Ready! Your webhook signing secret is ${secret} (^C to quit)`);
  options.print(`Forwarding test-mode events to ${options.forwardTo}`);
  options.onReady?.();

  const forward = async (event: ServerSentEvent) => {
    const signature = signPayload({ payload: event.data, secrets: [secret], timestampSeconds: nowSeconds() });
    try {
      const answer = await request(options.forwardTo, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signature,
          'user-agent': 'Paygate-CLI-Listen',
        },
        body: event.data,
        signal: AbortSignal.timeout(10_000),
      });
      await answer.body.dump();
      options.print(`${event.type} [${event.id}] --> POST ${options.forwardTo} [${answer.statusCode}]`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      options.print(`${event.type} [${event.id}] --> POST ${options.forwardTo} failed: ${reason}`);
    }
  };

  const done = (async () => {
    try {
      // One at a time, in the order written, as a local receiver would expect while debugging.
      for await (const event of serverSentEvents(response.body)) await forward(event);
    } catch (error) {
      if (!options.signal?.aborted) throw error;
    }
  })();
  return { secret, done };
}

/** Parses `paygate listen` arguments; the key and address may come from the environment. */
export function parseListenArgs(args: string[], env: NodeJS.ProcessEnv): Omit<ListenOptions, 'print'> {
  const { values } = parseArgs({
    args,
    options: {
      'forward-to': { type: 'string' },
      'api-key': { type: 'string' },
      'base-url': { type: 'string' },
    },
  });
  const forwardTo = values['forward-to'];
  if (!forwardTo)
    throw new ConfigError('--forward-to is required, e.g. --forward-to http://localhost:3000/webhooks');
  if (!URL.canParse(forwardTo)) throw new ConfigError(`--forward-to: '${forwardTo}' is not a URL`);
  // The variables are checked by their declaration (config-schema.ts); the options here.
  const apiKey = values['api-key'] ?? readText(env, 'PAYGATE_API_KEY');
  if (!apiKey)
    throw new ConfigError('a secret test key is required: --api-key sk_test_... or PAYGATE_API_KEY');
  if (!apiKey.startsWith('sk_test_'))
    throw new ConfigError('--api-key: listen takes a secret test-mode key (sk_test_...)');
  const baseUrl = values['base-url'] ?? readText(env, 'PAYGATE_BASE_URL') ?? DEFAULT_BASE_URL;
  if (!URL.canParse(baseUrl)) throw new ConfigError(`--base-url: '${baseUrl}' is not a URL`);
  return { apiKey, baseUrl, forwardTo };
}

export async function listenCommand(args: string[]): Promise<number> {
  const options = parseListenArgs(args, process.env);
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  process.once('SIGTERM', () => abort.abort());
  const session = await startListening({
    ...options,
    signal: abort.signal,
    print: (line) => process.stdout.write(`${line}\n`),
  });
  await session.done;
  return 0;
}
