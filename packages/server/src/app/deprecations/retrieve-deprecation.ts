import { NotFoundError } from '../../domain/errors.ts';
import {
  type DeprecationRecipientRecord,
  type DeprecationRecord,
  findDeprecation,
  listDeprecations,
  listRecipients,
} from '../../storage/repositories/deprecations.ts';

/** The record as the back office's pages show it. */
export type { DeprecationRecord } from '../../storage/repositories/deprecations.ts';

import type { AppContext } from '../context.ts';

export interface DeprecationDetail extends DeprecationRecord {
  merchantsTold: number;
  recipients: DeprecationRecipientRecord[];
}

/** One announcement with everyone told and when. */
export async function retrieveDeprecation(ctx: AppContext, id: string): Promise<DeprecationDetail> {
  const deprecation = await findDeprecation(ctx.db, id);
  if (!deprecation) throw new NotFoundError('deprecation', id);
  const recipients = await listRecipients(ctx.db, id);
  return {
    ...deprecation,
    merchantsTold: new Set(recipients.map((r) => r.merchantId)).size,
    recipients,
  };
}

/** The announcements, newest first, with how many merchants each told. */
export function listAnnouncedDeprecations(ctx: AppContext) {
  return listDeprecations(ctx.db, 100);
}
