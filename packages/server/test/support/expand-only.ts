// The expand-only rule for migrations (docs/operations.md, "Upgrades and rolling restarts"): while
// an upgrade rolls, the previous release's processes run against the new schema, so a migration
// added since that release may only add what it does not notice. This reads migrations as plain
// SQL statements and names each one it cannot prove harmless to the previous release. It is an
// allowlist: a statement of a kind it does not know is refused too.

/** A statement preceded by this comment is a contract step, allowed with its reason. */
export const CONTRACT_MARK = /^--\s*paygate:contract\b(.*)$/m;

export interface Statement {
  /** The statement without comments, whitespace collapsed, lower case (for matching only). */
  normalized: string;
  /** The comments written before it (a contract mark lives there). */
  comments: string;
  /** Its first line as written, for messages. */
  text: string;
}

/** Splits SQL into statements on `;` outside quotes, dollar quotes and comments. */
export function splitStatements(sql: string): Statement[] {
  const statements: Statement[] = [];
  let code = '';
  let comments = '';
  let raw = '';
  let i = 0;
  const flush = () => {
    const normalized = code.replace(/\s+/g, ' ').trim().toLowerCase();
    if (normalized) statements.push({ normalized, comments, text: raw.trim().split('\n')[0] ?? '' });
    code = '';
    comments = '';
    raw = '';
  };
  while (i < sql.length) {
    const rest = sql.slice(i);
    if (rest.startsWith('--')) {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      comments += `${sql.slice(i, stop)}\n`;
      code += ' ';
      i = stop;
      continue;
    }
    if (rest.startsWith('/*')) {
      const end = sql.indexOf('*/', i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      comments += `${sql.slice(i, stop)}\n`;
      code += ' ';
      i = stop;
      continue;
    }
    const dollar = /^\$[a-zA-Z_]*\$/.exec(rest);
    if (dollar || rest[0] === "'" || rest[0] === '"') {
      const quote = dollar ? dollar[0] : (rest[0] as string);
      const end = sql.indexOf(quote, i + quote.length);
      const stop = end === -1 ? sql.length : end + quote.length;
      // Identifiers keep their text (a quoted name is still the name); literals and bodies are opaque.
      code += quote === '"' ? sql.slice(i + 1, stop - 1) : " '' ";
      raw += sql.slice(i, stop);
      i = stop;
      continue;
    }
    if (rest[0] === ';') {
      flush();
      i += 1;
      continue;
    }
    code += rest[0];
    if (code.trim() || !/\s/.test(rest[0] ?? '')) raw += rest[0];
    i += 1;
  }
  flush();
  return statements;
}

/** Names (lower case, schema prefix dropped) of what `CREATE ...` statements in `sql` create. */
export function createdObjects(sql: string): Set<string> {
  const names = new Set<string>();
  for (const { normalized } of splitStatements(sql)) {
    const created =
      /^create (?:or replace )?(?:unique )?(?:table|index(?: concurrently)?|(?:materialized )?view|function|type|sequence|trigger) (?:if not exists )?([\w.]+)/.exec(
        normalized,
      );
    if (created?.[1]) names.add(bare(created[1]));
  }
  return names;
}

const bare = (name: string) => name.replace(/^public\./, '');

export interface Violation {
  migration: string;
  statement: string;
  reason: string;
}

/**
 * The statements of `migration` (one file's SQL) that the previous release could notice.
 * `existing` is what the previous release's migrations created; `added` what the migrations since
 * created (free to change: no released code reads them).
 */
export function expandOnlyViolations(
  migration: string,
  sql: string,
  existing: ReadonlySet<string>,
  added: ReadonlySet<string>,
): Violation[] {
  const violations: Violation[] = [];
  for (const statement of splitStatements(sql)) {
    const reason = refusal(statement.normalized, existing, added);
    if (!reason) continue;
    const mark = CONTRACT_MARK.exec(statement.comments);
    if (mark) {
      if ((mark[1] ?? '').replace(/^[\s:]+/, '').trim().length >= 10) continue;
      violations.push({
        migration,
        statement: statement.text,
        reason: `${reason}; its paygate:contract mark must say which release stopped reading it`,
      });
      continue;
    }
    violations.push({ migration, statement: statement.text, reason });
  }
  return violations;
}

function refusal(sql: string, existing: ReadonlySet<string>, added: ReadonlySet<string>): string | null {
  const isExisting = (name: string) => existing.has(bare(name)) && !added.has(bare(name));

  if (/^(select|insert into|update|comment on|grant|create extension if not exists) /.test(sql)) return null;

  // A new table (an existing name fails, or is skipped with IF NOT EXISTS).
  if (/^create (unlogged )?table /.test(sql)) return null;

  const index = /^create (unique )?index (concurrently )?(if not exists )?([\w.]+ )?on (only )?([\w.]+)/.exec(
    sql,
  );
  if (index?.[6]) {
    if (!isExisting(index[6])) return null;
    if (index[1]) return `a unique index on ${index[6]} can refuse the previous release's writes`;
    if (!index[2])
      return `an index on ${index[6]} must be built CONCURRENTLY (a plain build blocks its writes)`;
    return null;
  }

  const replaced = /^create or replace (function|(?:materialized )?view) ([\w.]+)/.exec(sql);
  if (replaced?.[2]) {
    return isExisting(replaced[2])
      ? `replacing ${replaced[1]} ${replaced[2]} changes what the previous release calls`
      : null;
  }
  if (/^create (function|type|sequence|(materialized )?view) /.test(sql)) return null;
  if (/^create (constraint )?trigger /.test(sql)) return null;

  const dropped =
    /^drop (table|index|view|materialized view|function|type|sequence|trigger|schema)( concurrently)? (if exists )?([\w.]+)/.exec(
      sql,
    );
  if (dropped?.[4]) {
    return isExisting(dropped[4])
      ? `DROP ${(dropped[1] ?? '').toUpperCase()} ${dropped[4]}: the previous release may still use it`
      : null;
  }

  const altered = /^alter table (if exists )?(only )?([\w.]+) (.*)$/.exec(sql);
  if (altered?.[3] && altered[4] !== undefined) {
    if (!isExisting(altered[3])) return null;
    if (/^rename /.test(altered[4]))
      return `renaming on ${altered[3]}: the previous release reads the old name`;
    for (const action of topLevelParts(altered[4])) {
      const reason = alterTableRefusal(altered[3], action);
      if (reason) return reason;
    }
    return null;
  }

  if (/^alter type [\w.]+ add value /.test(sql)) return null;
  if (/^truncate /.test(sql)) return 'TRUNCATE removes rows the previous release reads';
  return `not a statement known to be expand-only (${sql.split(' ').slice(0, 3).join(' ')} ...)`;
}

function alterTableRefusal(table: string, action: string): string | null {
  const added = /^add (column )?(if not exists )?(\w+) (.*)$/.exec(action);
  if (added && !/^(constraint|unique|primary|foreign|check|exclude)$/.test(added[3] ?? '')) {
    const definition = added[4] ?? '';
    if (
      /\bnot null\b/.test(definition) &&
      !/\bdefault\b/.test(definition) &&
      !/\bgenerated\b/.test(definition)
    ) {
      return `ADD COLUMN ${table}.${added[3]} NOT NULL without a DEFAULT refuses the previous release's inserts`;
    }
    return null;
  }
  if (/^add /.test(action)) return `a constraint added to ${table} can refuse the previous release's writes`;
  const column = /^alter (column )?(\w+) (.*)$/.exec(action);
  if (column) {
    const change = column[3] ?? '';
    if (/^set default /.test(change) || /^set (statistics|storage) /.test(change)) return null;
    if (/^(set data )?type /.test(change)) return `changing the type of ${table}.${column[2]}`;
    if (/^set not null/.test(change))
      return `SET NOT NULL on ${table}.${column[2]} refuses the previous release's writes`;
    if (/^drop default/.test(change))
      return `DROP DEFAULT on ${table}.${column[2]}: the previous release's inserts may omit it`;
    if (/^drop not null/.test(change))
      return `DROP NOT NULL on ${table}.${column[2]}: the previous release reads it as never null`;
    return `ALTER COLUMN ${table}.${column[2]} ${change.split(' ')[0]} is not known to be expand-only`;
  }
  if (/^drop (column )?/.test(action)) {
    const what = /^drop (constraint|column)? ?(if exists )?(\w+)/.exec(action);
    return `DROP ${(what?.[1] ?? 'column').toUpperCase()} ${table}.${what?.[3] ?? ''}: the previous release may still use it`;
  }
  if (/^validate constraint /.test(action) || /^set \(/.test(action)) return null;
  return `ALTER TABLE ${table} ${action.split(' ')[0]} is not known to be expand-only`;
}

/** `a, b (c, d), e` as `a`, `b (c, d)`, `e`. */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}
