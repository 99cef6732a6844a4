import {
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from "@electric-sql/pglite";

/*
 * The embedded database's statements, each parsed once and kept prepared
 * under a name (decision 049).
 *
 * PGlite's `query` sends every statement unnamed: PostgreSQL parses,
 * analyses and plans it at every call, in six calls into the WebAssembly
 * module. For a member page's statements that took longer than running them.
 * Here a statement's text is prepared once under a name (Parse, and
 * Describe for its parameters' types) and each call is one call into the
 * module: Bind, Describe, Execute and Sync. PostgreSQL then keeps the plan as
 * it does for any prepared statement: a plan per call for the first five,
 * then the generic plan when that is not costlier (plan_cache_mode auto).
 *
 * A text is kept from its second call: one called once (a migration's, a
 * one-off) goes through PGlite's own `query`, as does a statement that
 * starts with `planEachCall`.
 *
 * At most `maxStatements` are kept: the one used longest ago is closed
 * (DEALLOCATE) when another is prepared, so statements whose text varies
 * (an IN list's length) cannot fill the module's memory. A kept statement
 * that PostgreSQL no longer has (DEALLOCATE ALL from a socket client) or
 * cannot run again (a table's columns changed) is forgotten on its error and
 * prepared again: at once outside a transaction, at its next call inside one
 * (the error has ended the transaction).
 */

const { serialize } = protocol;

/**
 * Starts a statement whose best plan depends on its values (a range whose
 * size the values decide, as the learning count's chunks): it is not kept,
 * and PGlite's own `query` plans it at each call. A comment: PostgreSQL
 * servers read nothing in it.
 */
export const planEachCall = "/* plan each call */";

/** What Drizzle's PGlite driver calls on its client: `query` and `transaction`, as PGlite's. */
type StatementClient = Pick<PGlite, "query" | "transaction">;

type Prepared = { name: string; paramTypes: number[] };

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** Statements prepared in this process: each name is new, whatever client made it. */
let made = 0;

/** SQLSTATEs after which a kept statement is prepared again: gone, or its result changed. */
export const staleStatement = new Set(["26000", "0A000"]);

/**
 * Whether a statement's text is kept prepared at this call: from its second
 * call on, unless it starts with `planEachCall`. Texts called once are
 * remembered up to 1,000, then forgotten together. One rule for both
 * databases (this client, and PostgreSQL's connections: server-statements.server.ts).
 */
export function keepFromSecondCall(): (text: string, kept: boolean) => boolean {
  const seen = new Set<string>();
  return (text, kept) => {
    if (text.startsWith(planEachCall)) return false;
    if (kept || seen.has(text)) return true;
    if (seen.size >= 1000) seen.clear();
    seen.add(text);
    return false;
  };
}

/**
 * A client for Drizzle (typed as the PGlite it stands for: the driver calls
 * only `query` and `transaction`, which behave as PGlite's).
 */
export function preparedStatements(pglite: PGlite, maxStatements = 200): PGlite {
  /** By text, in order of last use (a Map keeps insertion order). */
  const kept = new Map<string, Prepared>();
  const admit = keepFromSecondCall();
  const keep = (text: string) => admit(text, kept.has(text));

  const prepare = async (text: string, options?: QueryOptions): Promise<Prepared> => {
    const messages: Uint8Array[] = [];
    if (kept.size >= maxStatements) {
      const [oldest, statement] = kept.entries().next().value as [string, Prepared];
      kept.delete(oldest);
      messages.push(serialize.close({ type: "S", name: statement.name }));
    }
    made += 1;
    const name = `app_${made}`;
    messages.push(
      serialize.parse({ name, text, types: options?.paramTypes }),
      serialize.describe({ type: "S", name }),
      serialize.sync(),
    );
    const answer = await pglite.execProtocolStream(concat(messages), { syncToFs: false });
    return { name, paramTypes: parse.parseDescribeStatementResults(answer) };
  };

  const serializeValue = (value: unknown, type: number | undefined, options?: QueryOptions) => {
    if (value === null || value === undefined) return null;
    const serializer =
      type === undefined ? undefined : (options?.serializers?.[type] ?? pglite.serializers[type]);
    return serializer ? serializer(value) : String(value);
  };

  /**
   * The parsers of a call: its own, then PGlite's (318 of them, with the
   * array types). PGlite's `parseResults` copies both into one new object at
   * every call, which took half the time of a statement read by its key; a
   * call's own parsers in front of PGlite's, on the prototype chain, read the
   * same.
   */
  const parsing = (options?: QueryOptions): [PGlite["parsers"], QueryOptions | undefined] =>
    options?.parsers
      ? [
          Object.assign(Object.create(pglite.parsers) as PGlite["parsers"], options.parsers),
          { ...options, parsers: undefined },
        ]
      : [pglite.parsers, options];

  /** One call: the statement prepared if it is not kept, then bound, described, executed. */
  const execute = async <T>(text: string, params: unknown[], options?: QueryOptions) => {
    let statement = kept.get(text);
    if (statement) kept.delete(text);
    else statement = await prepare(text, options);
    kept.set(text, statement);
    const { name, paramTypes } = statement;
    const values = params.map((value, i) => serializeValue(value, paramTypes[i], options));
    const answer = await pglite.execProtocolStream(
      concat([
        serialize.bind({ statement: name, values }),
        serialize.describe({ type: "P" }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    return parse.parseResults(answer, ...parsing(options))[0] as Results<T>;
  };

  const run = <T>(
    text: string,
    params: unknown[] = [],
    options: QueryOptions | undefined,
    inTransaction: boolean,
  ): Promise<Results<T>> =>
    pglite._runExclusiveQuery(async () => {
      let result: Results<T>;
      try {
        result = await execute<T>(text, params, options);
      } catch (error) {
        if (!staleStatement.has((error as { code?: string }).code ?? "")) throw error;
        kept.delete(text);
        // In a transaction the error has ended it: the caller sees it, as with any error.
        if (inTransaction) throw error;
        result = await execute<T>(text, params, options);
      }
      if (!inTransaction) await pglite.syncToFs();
      return result;
    });

  const client: StatementClient = {
    // Not inside another's transaction: it takes the transaction lock, as PGlite's own does.
    query: (text, params, options) =>
      keep(text)
        ? pglite._runExclusiveTransaction(() => run(text, params, options, false))
        : pglite.query(text, params, options),
    transaction: (callback) =>
      pglite.transaction((tx) => {
        const inside: Transaction = Object.create(tx);
        inside.query = (text, params, options) => {
          if (tx.closed) throw new Error("Transaction is closed");
          return keep(text) ? run(text, params, options, true) : tx.query(text, params, options);
        };
        return callback(inside);
      }),
  };
  return client as PGlite;
}
