import { createHash } from "node:crypto";
import pg from "pg";
import { keepFromSecondCall, staleStatement } from "./pglite-statements.server";

/*
 * PostgreSQL's statements, each kept prepared on the connection that runs it
 * (decision 053, which extends 049 from the embedded database to PostgreSQL).
 *
 * node-postgres sends a statement without a name unless it is given one:
 * PostgreSQL then parses, analyses and plans it at every call, and for the
 * member pages' statements that took longer than running them (0.1 to 0.3 ms
 * of planning against some 0.05 ms of execution each, on this app's session,
 * stamp and page statements). Given a name, node-postgres sends Parse once per
 * connection and then only Bind and Execute, and PostgreSQL keeps the plan as
 * for any prepared statement (a plan per call for the first five, then the
 * generic plan when it costs no more).
 *
 * The same rule as the embedded database's (pglite-statements.server.ts): a
 * text is kept from its second call in this process, unless it starts with
 * `planEachCall`. Its name is made from its text, so each connection prepares
 * it under the same one. Each connection keeps at most `maxStatements`:
 * preparing another closes (DEALLOCATE) the one it used longest ago, so texts
 * that vary (an IN list's length) cannot fill a server process's memory. A
 * kept statement the server no longer has (DEALLOCATE ALL from elsewhere on
 * the connection, a pooler's reset) or can no longer run (its table's columns
 * changed) is forgotten on that error and, outside a transaction, prepared
 * again at once; inside one the error has ended the transaction, as any does.
 *
 * Only calls with a text are named: a cursor or a statement that has a name
 * of its own goes as it came.
 */

type QueryText = string | { text: string; name?: string; [option: string]: unknown };

/** Where node-postgres remembers what it has parsed on a connection, by name. */
type ParsedStatements = { connection: { parsedStatements: Record<string, string> } };

const nameOf = (text: string) =>
  `app_${createHash("sha1").update(text).digest("base64url").slice(0, 22)}`;

const isText = (value: unknown): value is QueryText =>
  typeof value === "string" ||
  (typeof value === "object" &&
    value !== null &&
    typeof (value as { text?: unknown }).text === "string" &&
    typeof (value as { submit?: unknown }).submit !== "function");

/**
 * The pool's Client class (pg.Pool's `Client` option): connections that keep
 * their statements prepared. Texts are admitted once for the whole process.
 */
export function keptStatementsClient(maxStatements = 200): typeof pg.Client {
  const admit = keepFromSecondCall();
  /** Names of texts kept on some connection: a text once kept is kept at once elsewhere. */
  const names = new Map<string, string>();

  return class KeptStatementsClient extends pg.Client {
    /** This connection's prepared names, in order of last use (a Map keeps insertion order). */
    readonly #kept = new Set<string>();

    // node-postgres's query has a dozen typed overloads; this one stands for all of them and
    // hands every call it does not name to them unchanged.
    // biome-ignore lint/suspicious/noExplicitAny: the overloads' own parameter and result types
    override query(config: any, values?: any, callback?: any): any {
      if (!isText(config) || (typeof config === "object" && config.name !== undefined)) {
        return super.query(config, values, callback);
      }
      const text = typeof config === "string" ? config : config.text;
      let name = names.get(text);
      if (!admit(text, name !== undefined)) return super.query(config as never, values, callback);
      if (name === undefined) {
        if (names.size >= maxStatements * 5) names.clear();
        name = nameOf(text);
        names.set(text, name);
      }
      // pg.Pool's own query calls with a callback (text, values?, callback).
      const done = typeof values === "function" ? values : callback;
      const answer = this.#run(
        typeof config === "string" ? { text } : config,
        name,
        typeof values === "function" ? undefined : values,
      );
      if (typeof done !== "function") return answer;
      answer.then(
        (result) => done(null, result),
        (error) => done(error),
      );
      return undefined;
    }

    async #run(config: Exclude<QueryText, string>, name: string, values: unknown) {
      this.#use(name);
      try {
        return await super.query({ ...config, name }, values as unknown[]);
      } catch (error) {
        const code = (error as { code?: string }).code ?? "";
        if (!staleStatement.has(code)) throw error;
        // In a transaction the error has ended it: the caller sees it, as with any error. A
        // statement the server still has (its result changed) is closed at its next call outside one.
        if (this.getTransactionStatus() !== "I") {
          if (code === "26000") this.#forget(name);
          throw error;
        }
        this.#forget(name);
        await this.#close(name);
        this.#use(name);
        return super.query({ ...config, name }, values as unknown[]);
      }
    }

    /** Marks `name` used last; past the bound, closes the one used longest ago. */
    #use(name: string) {
      if (this.#kept.delete(name)) {
        this.#kept.add(name);
        return;
      }
      if (this.#kept.size >= maxStatements) {
        const oldest = this.#kept.values().next().value as string;
        this.#forget(oldest);
        // Queued ahead of the statement that asked: this connection runs one at a time.
        void this.#close(oldest);
      }
      this.#kept.add(name);
    }

    /** Closes `name` on the server; one it no longer has (DEALLOCATE ALL) needs nothing. */
    #close(name: string): Promise<unknown> {
      return super.query(`deallocate "${name}"`).catch(() => undefined);
    }

    /** Forgets `name` here and in node-postgres, which then sends Parse again. */
    #forget(name: string) {
      this.#kept.delete(name);
      delete (this as unknown as ParsedStatements).connection.parsedStatements[name];
    }
  };
}
