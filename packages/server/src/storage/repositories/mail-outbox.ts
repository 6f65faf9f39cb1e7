import { type Queryable, rowMapping } from '../db.ts';

export type MailStatus = 'PENDING' | 'SENT' | 'FAILED';

export interface QueuedMail {
  id: string;
  merchantId: string | null;
  dedupeKey: string;
  recipients: string[];
  subject: string;
  bodyText: string;
  status: MailStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  claimToken: string | null;
  lastError: string | null;
  sentAt: Date | null;
  createdAt: Date;
}

const mail = rowMapping<QueuedMail>({
  id: 'plain',
  merchantId: 'plain',
  dedupeKey: 'plain',
  recipients: 'plain',
  subject: 'plain',
  bodyText: 'plain',
  status: 'plain',
  attempts: 'plain',
  nextAttemptAt: 'plain',
  claimToken: 'plain',
  lastError: 'plain',
  sentAt: 'plain',
  createdAt: 'plain',
});

export interface MailToQueue {
  id: string;
  merchantId: string | null;
  dedupeKey: string;
  subject: string;
  bodyText: string;
  now: Date;
}

/** Queues a message to given addresses; false when one with the same dedupe key exists. */
export async function insertMail(
  q: Queryable,
  message: MailToQueue & { recipients: string[] },
): Promise<boolean> {
  const result = await q.query(
    `INSERT INTO mail_outbox (id, merchant_id, dedupe_key, recipients, subject, body_text, status, next_attempt_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'PENDING', $7, $7)
     ON CONFLICT (dedupe_key) DO NOTHING`,
    [
      message.id,
      message.merchantId,
      message.dedupeKey,
      message.recipients,
      message.subject,
      message.bodyText,
      message.now,
    ],
  );
  return result.rowCount > 0;
}

/**
 * Queues a message to a merchant's dashboard users with one of `roles`, as they are when it is
 * queued; nothing when it has none, or when a message with the same dedupe key exists. One
 * statement, so it is cheap to call again for a notice that may already be queued.
 */
export async function insertMailToTeam(
  q: Queryable,
  message: MailToQueue & { merchantId: string; roles: readonly string[] },
): Promise<boolean> {
  const result = await q.query(
    `INSERT INTO mail_outbox (id, merchant_id, dedupe_key, recipients, subject, body_text, status, next_attempt_at, created_at)
     SELECT $1, $2, $3, array_agg(email ORDER BY email), $4, $5, 'PENDING', $6, $6
       FROM dashboard_users WHERE merchant_id = $2 AND role = ANY ($7::text[])
     HAVING count(*) > 0
     ON CONFLICT (dedupe_key) DO NOTHING`,
    [
      message.id,
      message.merchantId,
      message.dedupeKey,
      message.subject,
      message.bodyText,
      message.now,
      message.roles,
    ],
  );
  return result.rowCount > 0;
}

/** Claims up to `limit` due messages for one sender (SKIP LOCKED), holding each until `leaseUntil`. */
export async function claimDueMail(
  q: Queryable,
  input: { now: Date; leaseUntil: Date; claimToken: string; limit: number },
): Promise<QueuedMail[]> {
  const { rows } = await q.query(
    `WITH due AS (
       SELECT id FROM mail_outbox WHERE next_attempt_at <= $1 AND status = 'PENDING'
        ORDER BY next_attempt_at LIMIT $4 FOR UPDATE SKIP LOCKED
     )
     UPDATE mail_outbox m SET next_attempt_at = $2, claim_token = $3
       FROM due WHERE m.id = due.id
     RETURNING ${mail.columns('m')}`,
    [input.now, input.leaseUntil, input.claimToken, input.limit],
  );
  return rows.map((row) => mail.fromRow(row));
}

/** Records one sending attempt under its claim: sent, or when to try again (null: given up). */
export async function finishMailAttempt(
  q: Queryable,
  input: {
    id: string;
    claimToken: string;
    sentAt: Date | null;
    nextAttemptAt: Date | null;
    error: string | null;
  },
): Promise<void> {
  const status: MailStatus = input.sentAt ? 'SENT' : input.nextAttemptAt ? 'PENDING' : 'FAILED';
  await q.query(
    `UPDATE mail_outbox
        SET status = $3, sent_at = $4, next_attempt_at = $5, last_error = $6, attempts = attempts + 1, claim_token = NULL
      WHERE id = $1 AND claim_token = $2`,
    [input.id, input.claimToken, status, input.sentAt, input.nextAttemptAt, input.error],
  );
}
