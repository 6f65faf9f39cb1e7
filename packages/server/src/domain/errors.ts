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
    super('invalid_state_transition', `Cannot ${operation} a payment intent whose status is ${from}.`);
  }
}

/** An Idempotency-Key conflict: reused with another body, or its first request still running. */
export class IdempotencyError extends AppError {}

/** The gateway declined, rejected or could not be reached. */
export class GatewayError extends AppError {}

/** An amount or currency rule of the gateway or of the refundable balance. */
export class AmountRuleError extends AppError {}
