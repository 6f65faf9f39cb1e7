// The PHP client's resource classes (clients/php/src/Resource/<Class>.php): readonly typed
// properties read once from the decoded JSON, on the hand-written ApiResource and Fields.
import {
  type ClassModel,
  camel,
  type EventModel,
  enumFields,
  type FieldModel,
  GENERATED_NOTICE,
  ownFields,
  sentence,
} from './model.ts';

export const phpFile = (model: ClassModel) => `clients/php/src/Resource/${model.name}.php`;

/**
 * PHP reads every member when the object is built, so a member is read strictly only where the
 * object is useless without it (a resource's id and amount, every required member of a nested
 * object); the rest are nullable, so an object from another version of the service still loads.
 */
function strict(model: ClassModel, field: FieldModel): boolean {
  if (field.nullable || field.optional) return false;
  return !model.resource || field.name === 'id' || field.name === 'amount_minor';
}

function phpDoc(text: string, indent: string): string {
  const words = sentence(text).split(/\s+/);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && indent.length + 3 + line.length + 1 + word.length > 100) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  if (lines.length === 1 && indent.length + 7 + lines[0]!.length <= 100)
    return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`).join('\n')}\n${indent} */\n`;
}

const upper = (name: string) => name.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();

function propertyOf(model: ClassModel, field: FieldModel): { type: string; read: string } {
  const t = field.type;
  const name = `'${field.name}'`;
  const s = strict(model, field);
  switch (t.kind) {
    case 'string':
    case 'enum':
    case 'literal':
      return s
        ? { type: 'string', read: `Fields::string($values, ${name})` }
        : { type: '?string', read: `Fields::optionalString($values, ${name})` };
    case 'integer':
      return s
        ? { type: 'int', read: `Fields::int($values, ${name})` }
        : { type: '?int', read: `Fields::optionalInt($values, ${name})` };
    case 'boolean':
      return { type: '?bool', read: `Fields::optionalBool($values, ${name})` };
    case 'metadata':
      return { type: '?\\stdClass', read: `Fields::optionalObject($values, ${name})` };
    case 'object':
      return {
        type: `?${t.className}`,
        read: `${t.className}::fromOptional(\n            Fields::optionalObject($values, ${name}),\n        )`,
      };
    case 'null':
      throw new Error(`${field.name}: a null-only member has no property`);
  }
}

export function renderPhp(model: ClassModel): string {
  let out = `<?php\n\n${GENERATED_NOTICE.map((l) => `// ${l}`).join('\n')}\n\ndeclare(strict_types=1);\n\nnamespace Paygate\\Resource;\n\n`;
  out += phpDoc(
    `${sentence(model.doc)} Members the API adds later are kept and readable by their API name.`,
    '',
  );
  out += `final class ${model.name} extends ApiResource\n{\n`;
  const constants: string[] = [];
  for (const field of enumFields(model)) {
    const e = field.type.enum;
    if (e.open) {
      constants.push(
        `    /** The documented values of $${camel(field.name)} (more may be added later). */\n` +
          `    public const ${upper(field.name)}S = [\n${e.values.map((v) => `        '${v}',`).join('\n')}\n    ];\n`,
      );
    } else {
      constants.push(
        e.values.map((v) => `    public const ${upper(field.name)}_${upper(v)} = '${v}';\n`).join(''),
      );
    }
  }
  if (constants.length > 0) out += `${constants.join('\n')}\n`;
  const fields = model.resource
    ? model.fields.filter((f) => f.name === 'id').concat(ownFields(model))
    : ownFields(model);
  for (const field of fields) {
    if (field.doc && field.name !== 'id') out += phpDoc(field.doc, '    ');
    out += `    public readonly ${propertyOf(model, field).type} $${camel(field.name)};\n`;
  }
  out +=
    '\n    public static function fromJson(\\stdClass $values): static\n    {\n        $object = new static($values);\n';
  for (const field of fields)
    out += `        $object->${camel(field.name)} = ${propertyOf(model, field).read};\n`;
  out += '        return $object;\n    }\n';
  if (!model.resource) {
    out += `\n    /** The object of a member that may be null or absent. */\n    public static function fromOptional(?\\stdClass $values): ?static\n    {\n        return $values === null ? null : static::fromJson($values);\n    }\n`;
  }
  out += '}\n';
  return out;
}

export const PHP_EVENT_TYPES_FILE = 'clients/php/src/Resource/EventTypes.php';

/** The event types this client version knows (Event::KNOWN_TYPES). */
export function renderPhpEventTypes(events: EventModel[]): string {
  let out = `<?php\n\n${GENERATED_NOTICE.map((l) => `// ${l}`).join('\n')}\n\ndeclare(strict_types=1);\n\nnamespace Paygate\\Resource;\n\n`;
  out +=
    '/**\n * The event types this client version knows; others are to be acknowledged and ignored.\n *\n * @internal\n */\n';
  out += `final class EventTypes\n{\n    public const KNOWN = [\n${events.map((e) => `        '${e.type}',`).join('\n')}\n    ];\n}\n`;
  return out;
}
