import { allowedValues, CONFIG_VARIABLES, type ConfigVariable } from './config-schema.ts';

/** The lines of docs/operations.md between these markers are generated from config-schema.ts. */
export const TABLE_START =
  '<!-- configuration table: generated from packages/server/src/config-schema.ts -->';
export const TABLE_END = '<!-- end of the configuration table -->';

const cell = (text: string) => text.replace(/\|/g, '\\|');

function defaultOf(variable: ConfigVariable): string {
  // A note that is one value is code; a note in words is prose (it quotes its own values).
  if (variable.defaultNote)
    return /[\s`]/.test(variable.defaultNote) ? variable.defaultNote : `\`${variable.defaultNote}\``;
  return variable.default === null ? '(none)' : `\`${variable.default}\``;
}

/** The table of every variable, as docs/operations.md shows it. */
export function renderConfigTable(): string {
  const rows = CONFIG_VARIABLES.map((v) =>
    [
      `\`${v.name}\``,
      defaultOf(v),
      cell(allowedValues(v.type)),
      v.secret ? 'yes' : '',
      v.readBy.join(', '),
      cell(v.summary),
    ].join(' | '),
  );
  return [
    TABLE_START,
    '| Variable | Default | Allowed | Secret | Read by | Meaning |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row} |`),
    TABLE_END,
  ].join('\n');
}

/** `text` (docs/operations.md) with its configuration table replaced by the generated one. */
export function withConfigTable(text: string): string {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start === -1 || end === -1) throw new Error('docs/operations.md has no configuration table markers');
  return `${text.slice(0, start)}${renderConfigTable()}${text.slice(end + TABLE_END.length)}`;
}
