// The TypeScript client's resource types (packages/client-node/src/generated/resources.ts).
import {
  type ClassModel,
  type EventModel,
  enums,
  type FieldModel,
  GENERATED_NOTICE,
  sentence,
} from './model.ts';

export const TYPESCRIPT_FILE = 'packages/client-node/src/generated/resources.ts';

const doc = (text: string | null, indent = '') => (text ? `${indent}/** ${sentence(text)} */\n` : '');

function typeOf(field: FieldModel): string {
  const t = field.type;
  const base = (() => {
    switch (t.kind) {
      case 'string':
        return 'string';
      case 'integer':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'metadata':
        return 'Metadata';
      case 'enum':
        return t.enum.open ? `${t.enum.name} | (string & {})` : t.enum.name;
      case 'literal':
        return `'${t.value}'`;
      case 'null':
        return 'null';
      case 'object':
        return t.className;
    }
  })();
  return field.nullable ? `${base} | null` : base;
}

export function renderTypeScript(classes: ClassModel[], events: EventModel[]): string {
  let out = `${GENERATED_NOTICE.map((l) => `// ${l}`).join('\n')}\n// Resource shapes as the API returns them (snake_case, as on the wire).\n\n`;
  out += '/** At most 50 string keys of at most 40 characters, each a string of at most 500. */\n';
  out += 'export type Metadata = Record<string, string>;\n';
  for (const e of Object.values(enums)) {
    out += `\n/** The values of ${e.name}${e.open ? ' documented so far (more may be added later: treat one you do not know as the most general)' : ''}. */\n`;
    out += `export type ${e.name} = ${e.values.map((v) => `'${v}'`).join(' | ')};\n`;
  }
  for (const model of classes) {
    out += `\n${doc(model.doc)}export interface ${model.name} {\n`;
    for (const field of model.fields) {
      out += doc(field.doc, '  ');
      out += `  ${field.name}${field.optional ? '?' : ''}: ${typeOf(field)};\n`;
    }
    out += '}\n';
  }
  out += '\n/** The resource each event type carries as `data.object`. */\nexport interface EventObjects {\n';
  for (const event of events) out += `${doc(event.summary, '  ')}  '${event.type}': ${event.className};\n`;
  out += '}\n\nexport type EventType = keyof EventObjects;\n';
  out += '\n/** The event types this client version knows; others are to be acknowledged and ignored. */\n';
  out += `export const knownEventTypes: readonly EventType[] = [${events.map((e) => `'${e.type}'`).join(', ')}];\n`;
  return out;
}
