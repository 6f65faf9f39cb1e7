// The Python client's resource classes (clients/python/src/paygate/_generated.py): typed
// read-only properties over the JSON object received, on the hand-written bases of _objects.py.
import {
  type ClassModel,
  type EventModel,
  enums,
  type FieldModel,
  GENERATED_NOTICE,
  ownFields,
  sentence,
} from './model.ts';

export const PYTHON_FILE = 'clients/python/src/paygate/_generated.py';

/** `PaymentIntentStatus` → `PAYMENT_INTENT_STATUSES`, `DeclineCode` → `DECLINE_CODES`. */
export function pythonEnumConstant(name: string): string {
  const upper = name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
  return upper.endsWith('S') ? `${upper}ES` : `${upper}S`;
}

const INDENT = '        ';

/** A docstring wrapped at 100 columns, as the hand-written modules write them. */
function docstring(text: string, indent: string): string {
  const words = sentence(text).replace(/`/g, '``').split(/\s+/);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const first = lines.length === 0;
    const width = 100 - indent.length - (first ? 3 : 0) - 3;
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return `${indent}"""${lines.join(`\n${indent}`)}"""\n`;
}

function property(field: FieldModel): string {
  const t = field.type;
  const maybe = field.nullable || field.optional;
  const read = (() => {
    switch (t.kind) {
      case 'string':
      case 'enum':
        return maybe
          ? { type: 'Optional[str]', body: `return self._optional_str("${field.name}")` }
          : { type: 'str', body: `return self._str("${field.name}")` };
      case 'integer':
        return maybe
          ? { type: 'Optional[int]', body: `return self._optional_int("${field.name}")` }
          : { type: 'int', body: `return self._int("${field.name}")` };
      case 'boolean':
        return { type: 'bool', body: `return self._bool("${field.name}")` };
      case 'metadata':
        return { type: 'Dict[str, str]', body: `return self._dict("${field.name}")` };
      case 'object':
        return {
          type: `Optional[${t.className}]`,
          body: `value = self.get("${field.name}")\n${INDENT}return ${t.className}(value) if isinstance(value, dict) else None`,
        };
      case 'literal':
        return { type: 'str', body: `return self._str("${field.name}")` };
      case 'null':
        throw new Error(`${field.name}: a null-only member has no property`);
    }
  })();
  const values =
    t.kind === 'enum'
      ? `One of ${pythonEnumConstant(t.enum.name)}${t.enum.open ? ' (more may be added later)' : ''}.`
      : '';
  const said = field.doc ? sentence(field.doc.replace(/\bnull\b/g, 'None')) : '';
  const text = [said, values].filter(Boolean).join(' ');
  return (
    `\n    @property\n    def ${field.name}(self) -> ${read.type}:\n` +
    (text ? docstring(text, INDENT) : '') +
    `${INDENT}${read.body}\n`
  );
}

export function renderPython(classes: ClassModel[], events: EventModel[]): string {
  let out = `"""${GENERATED_NOTICE.join('\n')}\n\nThe API's resources as typed read-only views of the JSON object received (see _objects.py).\n"""\n\n`;
  out += 'from __future__ import annotations\n\nfrom typing import Dict, FrozenSet, Optional\n\n';
  out += 'from ._objects import JsonObject, Resource\n';
  for (const e of Object.values(enums)) {
    const values = e.values.map((v) => `        "${v}",`).join('\n');
    out += `\n${pythonEnumConstant(e.name)}: FrozenSet[str] = frozenset(\n    {\n${values}\n    }\n)\n`;
    out += `"""The values of ${e.name}${e.open ? ' documented so far (more may be added later)' : ''}."""\n`;
  }
  out += `\n#: The event types this client version knows; others are to be acknowledged and ignored.\nKNOWN_EVENT_TYPES: FrozenSet[str] = frozenset(\n    {\n${events.map((e) => `        "${e.type}",`).join('\n')}\n    }\n)\n`;
  for (const model of classes) {
    out += `\n\nclass ${model.name}(${model.resource ? 'Resource' : 'JsonObject'}):\n`;
    out += docstring(`${sentence(model.doc)} Members added to the API later are kept.`, '    ');
    const money = model.fields
      .filter((f) => f.type.kind === 'integer' && f.type.money)
      .map((f) => `"${f.name}"`);
    if (money.length > 0)
      out += `\n    _money_fields = (${money.join(', ')}${money.length === 1 ? ',' : ''})\n`;
    for (const field of ownFields(model)) out += property(field);
  }
  return out;
}
