import { newId } from '../domain/ids.ts';
import type { Queryable } from '../storage/db.ts';
import { insertMail, insertMailToTeam } from '../storage/repositories/mail-outbox.ts';

/**
 * The mail API other features use: queue a message in the transaction of the change it reports
 * (the outbox), and the mail job sends it. The dedupe key names the fact the message reports
 * (`webhook_endpoint.failing:we_...:<since>`, `invitation:<id>`): queueing the same fact twice,
 * from two processes or a retried transaction, queues one message.
 */
export interface MailToSend {
  dedupeKey: string;
  subject: string;
  text: string;
  merchantId?: string | null;
}

/** Queues a message to the given addresses. Returns false when it was already queued. */
export function queueMail(
  tx: Queryable,
  now: Date,
  message: MailToSend & { to: string[] },
): Promise<boolean> {
  return insertMail(tx, {
    id: newId('mail'),
    merchantId: message.merchantId ?? null,
    dedupeKey: message.dedupeKey,
    recipients: message.to,
    subject: message.subject,
    bodyText: message.text,
    now,
  });
}

/** Queues a message to a merchant's dashboard users of the given roles (none: nothing queued). */
export function queueMailToTeam(
  tx: Queryable,
  now: Date,
  message: MailToSend & { merchantId: string; roles: readonly ('owner' | 'developer' | 'viewer')[] },
): Promise<boolean> {
  return insertMailToTeam(tx, {
    id: newId('mail'),
    merchantId: message.merchantId,
    dedupeKey: message.dedupeKey,
    subject: message.subject,
    bodyText: message.text,
    roles: message.roles,
    now,
  });
}
