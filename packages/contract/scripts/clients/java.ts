// The Java client's resource classes (clients/java/src/main/java/dev/paygate/<Class>.java):
// typed accessors over the JSON object received, on the hand-written ApiObject and ApiResource.
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

export const javaFile = (model: ClassModel) => `clients/java/src/main/java/dev/paygate/${model.name}.java`;

/** Names a class had before its constants were generated, kept so that code using them compiles. */
const KEPT_NAMES: Record<string, Record<string, string>> = {
  LastPaymentError: { CARD_DECLINED: 'CODE_CARD_DECLINED', GATEWAY_REJECTED: 'CODE_GATEWAY_REJECTED' },
};

function javaDoc(text: string, indent: string): string {
  const words = sentence(text)
    .replace(/`([^`]+)`/g, '{@code $1}')
    .split(/\s+/);
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

function accessor(model: ClassModel, field: FieldModel): string {
  const t = field.type;
  const maybe = field.nullable || field.optional;
  const member = `"${field.name}"`;
  const [type, body] = ((): [string, string] => {
    switch (t.kind) {
      case 'string':
      case 'enum':
      case 'literal':
        return maybe
          ? ['Optional<String>', `return Optional.ofNullable(JsonObjects.string(json(), ${member}));`]
          : ['String', `return JsonObjects.string(json(), ${member});`];
      case 'integer':
        if (maybe)
          throw new Error(`${model.name}.${field.name}: an optional integer needs an OptionalLong reader`);
        return ['long', `return JsonObjects.integer(json(), ${member});`];
      case 'boolean':
        return ['boolean', `return JsonObjects.bool(json(), ${member});`];
      case 'metadata':
        return ['Map<String, String>', `return JsonObjects.stringMap(json(), ${member});`];
      case 'object':
        return [
          `Optional<${t.className}>`,
          `JsonElement value = json().get(${member});\n    return value != null && value.isJsonObject()\n        ? Optional.of(${t.className}.fromJson(value.getAsJsonObject()))\n        : Optional.empty();`,
        ];
      case 'null':
        throw new Error(`${field.name}: a null-only member has no accessor`);
    }
  })();
  const values =
    t.kind === 'enum'
      ? t.enum.open
        ? `One of {@link #${upper(field.name)}S} (more may be added later).`
        : `One of ${t.enum.values.map((v) => `{@link #${upper(field.name)}_${upper(v)}}`).join(', ')}.`
      : '';
  // An absent or null member reads as an empty Optional.
  const said = field.doc ? sentence(maybe ? field.doc.replace(/\bnull\b/g, 'empty') : field.doc) : '';
  const text = [said, values].filter(Boolean).join(' ');
  return `\n${text ? javaDoc(text, '  ') : ''}  public ${type} ${camel(field.name)}() {\n    ${body}\n  }\n`;
}

export function renderJava(model: ClassModel): string {
  const fields = ownFields(model);
  const uses = (kind: FieldModel['type']['kind']) => fields.some((f) => f.type.kind === kind);
  const optional = fields.some((f) => f.nullable || f.optional);
  const imports = [
    uses('object') ? 'com.google.gson.JsonElement' : null,
    'com.google.gson.JsonObject',
    enumFields(model).some((f) => f.type.enum.open) ? 'java.util.List' : null,
    uses('metadata') ? 'java.util.Map' : null,
    optional ? 'java.util.Optional' : null,
  ].filter(Boolean);
  let out = `${GENERATED_NOTICE.map((l) => `// ${l}`).join('\n')}\npackage dev.paygate;\n\n${imports.map((i) => `import ${i};`).join('\n')}\n\n`;
  out += javaDoc(
    `${sentence(model.doc)} Immutable; members the API adds later are kept in {@link #toJsonObject()}.`,
    '',
  );
  out += `public final class ${model.name} extends ${model.resource ? 'ApiResource' : 'ApiObject'} {\n`;
  for (const field of enumFields(model)) {
    const e = field.type.enum;
    if (e.open) {
      out += `  /** The documented values of {@link #${camel(field.name)}()} (more may be added later). */\n`;
      out += `  public static final List<String> ${upper(field.name)}S =\n      List.of(\n${e.values.map((v) => `          "${v}"`).join(',\n')});\n\n`;
    } else {
      for (const v of e.values)
        out += `  public static final String ${upper(field.name)}_${upper(v)} = "${v}";\n`;
      out += '\n';
    }
  }
  for (const [kept, name] of Object.entries(KEPT_NAMES[model.name] ?? {})) {
    out += `  /** The same as {@link #${name}}, by the name it had before the constants were generated. */\n`;
    out += `  public static final String ${kept} = ${name};\n\n`;
  }
  if (model.resource) {
    out += `  ${model.name}(JsonObject json, ResponseInfo lastResponse) {\n    super(json, lastResponse);\n  }\n\n`;
    out += `  /** Builds one from JSON, e.g. the {@code data.object} of an event. */\n`;
    out += `  public static ${model.name} fromJson(JsonObject json) {\n    return new ${model.name}(json, null);\n  }\n`;
  } else {
    out += `  private ${model.name}(JsonObject json) {\n    super(json);\n  }\n\n`;
    out += `  /** Builds one from the JSON object of the member that holds it. */\n`;
    out += `  public static ${model.name} fromJson(JsonObject json) {\n    return new ${model.name}(json);\n  }\n`;
  }
  for (const field of fields) out += accessor(model, field);
  out += '}\n';
  return out;
}

export const JAVA_EVENT_TYPES_FILE = 'clients/java/src/main/java/dev/paygate/EventTypes.java';

/** The event types this client version knows (Event.isKnownType). */
export function renderJavaEventTypes(events: EventModel[]): string {
  let out = `${GENERATED_NOTICE.map((l) => `// ${l}`).join('\n')}\npackage dev.paygate;\n\nimport java.util.Set;\n\n`;
  out += '/** The event types this client version knows; others are to be acknowledged and ignored. */\n';
  out += 'final class EventTypes {\n  static final Set<String> KNOWN =\n      Set.of(\n';
  out += `${events.map((e) => `          "${e.type}"`).join(',\n')});\n\n  private EventTypes() {}\n}\n`;
  return out;
}
