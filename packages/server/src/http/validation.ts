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

/** The top-level fields of a body schema that refuses others; null when it takes any. */
function closedFields(schema: object): string[] | null {
  const { properties, additionalProperties } = schema as {
    properties?: object;
    additionalProperties?: unknown;
  };
  return properties && additionalProperties === false ? Object.keys(properties) : null;
}

/** The known field a mistyped or foreign one most likely meant (`amount` → `amount_minor`). */
export function likelyField(unknown: string, known: readonly string[]): string | null {
  const name = unknown.toLowerCase();
  const prefixed = known.find((k) => k.startsWith(`${name}_`) || name.startsWith(`${k}_`));
  if (prefixed) return prefixed;
  return known.find((k) => editDistance(name, k) <= 2) ?? null;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  if (httpPart !== 'body') return textAjv.compile(schema);
  const validate = bodyAjv.compile(schema);
  const known = closedFields(schema);
  // No body at all (Fastify gives null) is judged as `{}`: an optional body (cancel, confirm) passes, and a required
  // one reports its first missing field instead of "body must be object".
  const validateBody = (data: unknown) => {
    const value = data === undefined || data === null ? {} : data;
    const valid = validate(value);
    validateBody.errors = validate.errors;
    // A field we do not know is named before a field that is missing: `amount` sent for
    // `amount_minor` (another API's name) is the mistake to report, not "amount_minor is required".
    if (!valid && known && typeof value === 'object' && !Array.isArray(value)) {
      const unknown = Object.keys(value).find((field) => !known.includes(field));
      if (unknown !== undefined) {
        validateBody.errors = [
          {
            keyword: 'additionalProperties',
            instancePath: '',
            schemaPath: '#/additionalProperties',
            params: { additionalProperty: unknown, likely: likelyField(unknown, known) },
            message: 'must NOT have additional properties',
          },
        ];
      }
    }
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
      case 'additionalProperties': {
        const likely = typeof params.likely === 'string' ? `; did you mean \`${params.likely}\`?` : '';
        return {
          field: join(String(params.additionalProperty)),
          message: `${context === 'querystring' ? 'is not a recognised query parameter' : 'is not a recognised field'}${likely}`,
        };
      }
      case 'required':
        return { field: join(String(params.missingProperty)), message: 'is required' };
      case 'type':
        return { field: base || context, message: `must be of type ${String(params.type)}` };
      default:
        return { field: base || context, message: error.message ?? 'is invalid' };
    }
  });
}
