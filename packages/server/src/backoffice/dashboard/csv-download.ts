import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Sends a CSV export as a stream, which Fastify sends as it is (the route's schema is there for
 * the OpenAPI document and the route table): an attachment named `<name>-<UTC time>.csv`, never
 * cached, never sniffed as anything else.
 */
export function sendCsv(reply: FastifyReply, now: Date, name: string, csv: AsyncIterable<string>) {
  const stamp = now.toISOString().slice(0, 19).replaceAll(':', '');
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${stamp}.csv"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(Readable.from(csv));
}
