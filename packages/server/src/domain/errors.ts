import { type ProblemCode, problemStatusByCode } from '@paygate/contract';

export interface FieldError {
  field: string;
  message: string;
}

/**
 * The one base of every error the service means to show a caller. The HTTP layer turns it into a
 * problem document; anything that is not an AppError is an internal error and shows no detail.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ProblemCode,
    message: string,
    readonly extras: {
      errors?: FieldError[];
      retryAfterSeconds?: number;
      members?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.status = problemStatusByCode[code];
  }
}

/** A request field is missing, malformed or not allowed. */
export class ValidationError extends AppError {
  constructor(field: string, message: string) {
    super('validation_error', `${field}: ${message}`, { errors: [{ field, message }] });
  }
}

/** The credential is absent, malformed, unknown, or lacks the right for this operation. */
export class AuthenticationError extends AppError {}

export class NotFoundError extends AppError {
  constructor(resource: string, id: string) {
    super('resource_not_found', `No ${resource} with id '${id}' exists for this key and mode.`);
  }
}

/** The resource's current state does not allow the operation. */
export class InvalidStateTransitionError extends AppError {
  constructor(
    readonly from: string,
    readonly operation: string,
  ) {
    super(
      'invalid_state_transition',
      `Cannot ${operation} a payment intent whose status is ${from}.${nextStep(from, operation)}`,
    );
  }
}

/** What the caller can do instead, where the state says it: a final intent is never paid. */
function nextStep(from: string, operation: string): string {
  if (operation !== 'confirm') return '';
  switch (from) {
    case 'EXPIRED':
      return ' It expired before it was paid and can no longer be: create a new payment intent (with a new Idempotency-Key) and confirm that one.';
    case 'CANCELED':
    case 'FAILED':
      return ' It can no longer be paid: create a new payment intent (with a new Idempotency-Key) and confirm that one.';
    default:
      return '';
  }
}

/** An Idempotency-Key conflict: reused with another body, or its first request still running. */
export class IdempotencyError extends AppError {}

/** The gateway declined, rejected or could not be reached. */
export class GatewayError extends AppError {}

/** An amount or currency rule of the gateway or of the refundable balance. */
export class AmountRuleError extends AppError {}
