import { readDeprecationScope, withdrawalProblem } from '../../domain/deprecations.ts';
import { ValidationError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import type { Queryable } from '../../storage/db.ts';
import { type DeprecationRecord, insertDeprecation } from '../../storage/repositories/deprecations.ts';
import type { AppContext } from '../context.ts';
import { type DeprecationDetail, retrieveDeprecation } from './retrieve-deprecation.ts';
import { tellAffectedTeams } from './tell-affected-teams.ts';

export interface DeprecationAnnouncement {
  affected: { clients?: { name: string; below: string }[]; contract?: string };
  withdraw_on: string;
  text: string;
}

/**
 * Announces a deprecation and, in the same transaction, tells every affected merchant's owners
 * and developers by e-mail (the mail outbox): an announcement is never recorded without its
 * notices, nor a notice queued for an announcement that was not. `audit` writes in the same
 * transaction too (the console's audit line).
 */
export async function announceDeprecation(
  ctx: AppContext,
  input: DeprecationAnnouncement,
  audit?: (tx: Queryable, deprecationId: string) => Promise<void>,
): Promise<DeprecationDetail> {
  const scope = readDeprecationScope(input.affected);
  if ('field' in scope) throw new ValidationError(scope.field, scope.message);
  const now = ctx.clock.now();
  const problem = withdrawalProblem(input.withdraw_on, now.toISOString().slice(0, 10));
  if (problem) throw new ValidationError('withdraw_on', problem);
  const text = input.text.trim();
  if (text === '') throw new ValidationError('text', 'must not be empty: it tells merchants what to do');
  const deprecation: DeprecationRecord = {
    id: newId('dep'),
    affected: scope,
    withdrawOn: input.withdraw_on,
    bodyText: text,
    createdAt: now,
  };
  await ctx.db.transaction(async (tx) => {
    await insertDeprecation(tx, deprecation);
    await tellAffectedTeams(ctx, tx, deprecation, now);
    await audit?.(tx, deprecation.id);
  });
  return retrieveDeprecation(ctx, deprecation.id);
}
