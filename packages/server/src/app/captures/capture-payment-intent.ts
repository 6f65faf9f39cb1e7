import type { CapturePaymentIntentBody } from '@paygate/contract';
import { addSeconds } from '../../clock.ts';
import { captureAmountFor } from '../../domain/capture.ts';
import { GatewayError, IdempotencyError, NotFoundError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  findOperationByRequest,
  finishCaptureInOneStatement,
  startCaptureInOneStatement,
} from '../../storage/repositories/authorization-operations.ts';
import { findPaymentIntent } from '../../storage/repositories/payment-intents.ts';
import type { AppContext } from '../context.ts';
import { type IdempotentAnswer, type IdempotentRequest, runInPhases } from '../idempotent-phases.ts';
import { paymentChangeOf } from '../payments/intent-status.ts';
import { paymentIntentResource } from '../resources/payment-intent.ts';
import {
  applyAuthorizationOutcome,
  capturedStep,
  OPERATION_LEASE_SECONDS,
  requestFor,
  resumedOperation,
  type StartedOperation,
  sendAuthorizationOperation,
  startAuthorizationOperation,
} from './authorization-operations.ts';

/**
 * `POST /v1/payment-intents/{id}/capture`: all or part of a REQUIRES_CAPTURE intent's
 * authorisation captured, in the three idempotent phases (start: the intent locked and checked,
 * the capture PENDING; the gateway call outside any transaction; finish). The answer is the intent
 * (SUCCEEDED; PROCESSING while the gateway's answer is unknown, which the repair job finishes), or
 * a 402 carrying it when the gateway refused the capture, stored under the Idempotency-Key.
 */
export function capturePaymentIntent(
  ctx: AppContext,
  request: IdempotentRequest,
  id: string,
  input: CapturePaymentIntentBody,
  /** Runs in the transaction that starts a new capture (the dashboard's audit line). */
  onStart?: (tx: Queryable, intentId: string) => Promise<void>,
): Promise<IdempotentAnswer> {
  const view = { kind: 'secret', clientSecretKey: ctx.clientSecretKey } as const;
  return runInPhases<StartedOperation | null, Awaited<ReturnType<typeof sendAuthorizationOperation>> | null>(
    ctx,
    request,
    {
      start: async (tx, key) => {
        const now = ctx.clock.now();
        const intent = await findPaymentIntent(tx, request.scope, id, { forUpdate: true });
        if (!intent) throw new NotFoundError('payment intent', id);
        const earlier = await findOperationByRequest(tx, intent.id, key.key, { forUpdate: true });
        if (earlier) {
          if (earlier.requestHash !== key.hash) {
            throw new IdempotencyError(
              'idempotency_key_reuse',
              'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
            );
          }
          if (earlier.status !== 'PENDING') return null;
          if (earlier.nextSyncAt && earlier.nextSyncAt.getTime() > now.getTime()) {
            throw new IdempotencyError(
              'idempotency_key_in_flight',
              'A request with this Idempotency-Key is still being processed. Wait, then retry with the same key.',
              { retryAfterSeconds: 1 },
            );
          }
          const resumed = await resumedOperation(tx, earlier);
          if (!resumed) throw new Error(`capture ${earlier.id} lost its charge`);
          return resumed;
        }
        const amount = captureAmountFor(intent, input.amount_minor, now);
        const started = await startAuthorizationOperation(tx, intent, 'capture', amount, key, now);
        await onStart?.(tx, intent.id);
        return started;
      },
      // The common case in one statement a phase (a new key, a capturable intent, the gateway's
      // capture): the dashboard's capture, with its audit line, takes the general path.
      ...(onStart
        ? {}
        : {
            startInOneStatement: async (key) => {
              const now = ctx.clock.now();
              const started = await startCaptureInOneStatement(ctx.db, {
                scope: request.scope,
                key,
                now,
                paymentIntentId: id,
                requestedMinor: input.amount_minor ?? null,
                operationId: newId('auo'),
                leaseUntil: addSeconds(now, OPERATION_LEASE_SECONDS),
              });
              if (!started) return null;
              const { operation, chargeReference, chargeConnectorData, intent } = started;
              return {
                started: {
                  operation,
                  send: requestFor(operation, chargeReference, chargeConnectorData),
                  intent,
                },
              };
            },
            finishInOneStatement: (started, outcome) => {
              if (!started?.intent || outcome?.kind !== 'succeeded') return null;
              const { operation } = started;
              const { step, change } = capturedStep(started.intent, operation, outcome, ctx.clock.now());
              const written = paymentChangeOf(change);
              if (!written) return null;
              return {
                status: 200,
                body: paymentIntentResource(step.to, view),
                write: (q, answer) =>
                  finishCaptureInOneStatement(q, {
                    operationId: operation.id,
                    gatewayReference: outcome.gatewayReference,
                    change: written,
                    scope: request.scope,
                    answer,
                  }),
              };
            },
          }),
      callOut: (started) => (started ? sendAuthorizationOperation(ctx, started) : Promise.resolve(null)),
      finish: async (tx, started, outcome) => {
        if (!started || !outcome) {
          const intent = await findPaymentIntent(tx, request.scope, id);
          if (!intent) throw new NotFoundError('payment intent', id);
          return { status: 200, body: paymentIntentResource(intent, view) };
        }
        const settled = await applyAuthorizationOutcome(ctx, tx, started.operation, outcome, 'answer');
        const body = paymentIntentResource(settled.intent, view);
        if (settled.refused) {
          throw new GatewayError(settled.refused.code, settled.refused.message, {
            members: { payment_intent: body },
          });
        }
        return { status: 200, body };
      },
    },
  );
}
