import { Ajv, type ErrorObject } from 'ajv';
import ajvFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from '../domain/errors.ts';

// ajv-formats is CommonJS: under Node's ESM interop its plugin function is the `default` member.
const addFormats = ajvFormats.default;

function makeAjv(coerceTypes: boolean): Ajv {
  // Bodies are never coerced ("100" is not an amount) and never stripped (unknown fields are
  // refused); query strings and path parameters arrive as text, so there coercion is right.
  const ajv = new Ajv({
    coerceTypes,
    removeAdditional: false,
    useDefaults: false,
    allErrors: false,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  if (httpPart !== 'body') return textAjv.compile(schema);
  const validate = bodyAjv.compile(schema);
  // No body at all (Fastify gives null) is judged as `{}`: an optional body (cancel, confirm) passes, and a required
  // one reports its first missing field instead of "body must be object".
  const validateBody = (data: unknown) => {
    const valid = validate(data === undefined || data === null ? {} : data);
    validateBody.errors = validate.errors;
    return valid;
  };
  validateBody.errors = validate.errors;
  return validateBody;
};

function dotted(instancePath: string): string {
  return instancePath.replace(/^\//, '').replace(/\//g, '.');
}

/** Turns ajv's errors into `{field, message}` entries that name the field a caller must fix. */
export function fieldErrorsFrom(errors: readonly ErrorObject[], context: string): FieldError[] {
  return errors.map((error) => {
    const base = dotted(error.instancePath);
    const join = (name: string) => (base ? `${base}.${name}` : name);
    const params = error.params as Record<string, unknown>;
    switch (error.keyword) {
      case 'additionalProperties':
        return {
          field: join(String(params.additionalProperty)),
          message:
            context === 'querystring' ? 'is not a recognised query parameter' : 'is not a recognised field',
        };
      case 'required':
        return { field: join(String(params.missingProperty)), message: 'is required' };
      case 'type':
        return { field: base || context, message: `must be of type ${String(params.type)}` };
      default:
        return { field: base || context, message: error.message ?? 'is invalid' };
    }
  });
}
