import { type PGlite, parse, protocol, type Results } from '@electric-sql/pglite';

/** A statement PGlite has parsed and planned under `name`, with the parameter types it inferred. */
interface Prepared {
  name: string;
  parameterTypes: number[];
}

/** Each call goes into PGlite as one buffer of protocol messages. */
function joined(messages: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(messages.reduce((length, m) => length + m.length, 0));
  let offset = 0;
  for (const message of messages) {
    out.set(message, offset);
    offset += message.length;
  }
  return out;
}

/**
 * Parameterised statements on the embedded database as named prepared statements, as the pg pool
 * runs them on PostgreSQL. PGlite's own `query` parses and plans the text again on every call and
 * crosses into WebAssembly six times for it (Parse, Describe, Bind, Describe, Execute, Sync, each
 * a call of its own); here a statement is parsed once (Parse, Describe, Sync: its parameter types)
 * and then runs as one call (Bind, Describe, Execute, Sync). Measured in the embedded flow: the
 * CPU of a whole payment, most of it PostgreSQL's own in WebAssembly, fell by about a third
 * (bench/RESULTS.md, round 3). Parameters are serialised by PGlite's serializers for the types
 * PostgreSQL inferred, and rows parsed by its parsers, exactly as its `query` does.
 *
 * The caller holds PGlite's query lock (and, outside a transaction, its transaction lock) around
 * `run`, as `query` takes them. At most `limit` statements are kept; the least recently used one is
 * closed to make room (statement texts are a fixed set, so this is a safeguard, not a cache policy).
 */
export class EmbeddedStatements {
  readonly #db: PGlite;
  readonly #limit: number;
  /** In order of last use: a Map iterates in insertion order, and a use re-inserts. */
  readonly #prepared = new Map<string, Prepared>();
  #generation = 0;
  #nextName = 0;
  /** Statements of an earlier generation are still allocated in PGlite (see `forgetAll`). */
  #deallocateDue = false;

  constructor(db: PGlite, limit = 500) {
    this.#db = db;
    this.#limit = limit;
  }

  get size(): number {
    return this.#prepared.size;
  }

  /** Runs one statement; `topLevel`: outside a transaction, so written through to the data dir. */
  async run<Row>(sql: string, params: readonly unknown[], topLevel: boolean): Promise<Results<Row>> {
    const { serialize } = protocol;
    if (topLevel && this.#deallocateDue) {
      await this.#db.execProtocolStream(serialize.query('DEALLOCATE ALL'), { syncToFs: false });
      // Also those prepared since (inside the transaction that ran the script): they are gone now.
      this.#prepared.clear();
      this.#generation += 1;
      this.#deallocateDue = false;
    }
    const statement = this.#prepared.get(sql) ?? (await this.#prepare(sql));
    this.#prepared.delete(sql);
    this.#prepared.set(sql, statement);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = this.#db.serializers[statement.parameterTypes[i] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await this.#db.execProtocolStream(
      joined([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const [result] = parse.parseResults(messages, this.#db.parsers) as Results<Row>[];
    if (topLevel) await this.#db.syncToFs();
    if (!result) throw new Error('the embedded database returned no result for a statement');
    return result;
  }

  /**
   * After a script (a migration may change what a statement returns): every statement is parsed
   * again on its next use, under a new name. The old ones are deallocated before the next
   * statement outside a transaction (inside one, a failed script may have aborted it).
   */
  forgetAll(): void {
    if (this.#prepared.size === 0) return;
    this.#prepared.clear();
    this.#generation += 1;
    this.#deallocateDue = true;
  }

  async #prepare(sql: string): Promise<Prepared> {
    const { serialize } = protocol;
    const name = `paygate_${this.#generation}_${this.#nextName++}`;
    const messages = [serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name })];
    const oldest = this.#prepared.size >= this.#limit ? this.#prepared.keys().next().value : undefined;
    const evicted = oldest === undefined ? undefined : this.#prepared.get(oldest);
    if (evicted) messages.push(serialize.close({ type: 'S', name: evicted.name }));
    messages.push(serialize.sync());
    // A failed Parse skips the Close after it: the evicted statement stays known until then.
    const answers = await this.#db.execProtocolStream(joined(messages), { syncToFs: false });
    if (oldest !== undefined) this.#prepared.delete(oldest);
    const description = answers.find((m) => m.name === 'parameterDescription') as
      | { dataTypeIDs?: number[] }
      | undefined;
    return { name, parameterTypes: description?.dataTypeIDs ?? [] };
  }
}
