import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { planEachCall } from "./pglite-statements.server";
import { keptStatementsClient } from "./server-statements.server";

// PostgreSQL runs on both of the suite's passes (the embedded one's too: .ci/run).
const url = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";

/** One connection, so that what it has prepared can be read on it. */
const pools: pg.Pool[] = [];
function onePool(maxStatements?: number) {
  const pool = new pg.Pool({
    connectionString: url,
    max: 1,
    Client: keptStatementsClient(maxStatements),
  });
  pools.push(pool);
  return pool;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
});

/** The texts the connection holds prepared under the app's names. */
async function prepared(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ statement: string }>({
    text: "select statement from pg_prepared_statements where name like 'app\\_%' and statement not like '%pg_prepared_statements%' order by statement",
    name: "test_prepared",
  });
  return rows.map((r) => r.statement);
}

describe("PostgreSQL statements kept prepared (decision 053)", () => {
  it("prepares a text at its second call and answers as an unnamed statement does", async () => {
    const pool = onePool();
    const text = "select $1::int + 1 as next, $2::text as word";
    const first = await pool.query(text, [1, "one"]);
    expect(await prepared(pool)).toEqual([]);
    const second = await pool.query({ text, rowMode: "array" }, [2, "two"]);
    expect(await prepared(pool)).toEqual([text]);
    // Its parameters are bound at each call, past the generic plan (the sixth call on).
    const answers: unknown[] = [];
    for (let i = 3; i <= 8; i++) answers.push((await pool.query(text, [i, `w${i}`])).rows[0]);
    expect(first.rows).toEqual([{ next: 2, word: "one" }]);
    expect(second.rows).toEqual([[3, "two"]]);
    expect(answers.at(-1)).toEqual({ next: 9, word: "w8" });
    expect(await prepared(pool)).toEqual([text]);
  });

  it("plans a statement that asks for it at each call", async () => {
    const pool = onePool();
    const each = `${planEachCall} select $1::int as n`;
    for (let i = 0; i < 3; i++) expect((await pool.query(each, [i])).rows).toEqual([{ n: i }]);
    expect(await prepared(pool)).toEqual([]);
  });

  it("answers a call made with a callback, as the pool's own calls are", async () => {
    const pool = onePool();
    const client = await pool.connect();
    const text = "select $1::int as n";
    try {
      for (let i = 0; i < 3; i++) {
        const rows = await new Promise((resolve, reject) =>
          client.query(text, [i], (error: Error | null, result: pg.QueryResult) =>
            error ? reject(error) : resolve(result.rows),
          ),
        );
        expect(rows).toEqual([{ n: i }]);
      }
      await expect(
        new Promise((resolve, reject) =>
          client.query("select nope", (error: Error | null) =>
            error ? reject(error) : resolve(1),
          ),
        ),
      ).rejects.toMatchObject({ code: "42703" });
    } finally {
      client.release();
    }
    expect(await prepared(pool)).toEqual([text]);
  });

  it("keeps at most its bound on a connection, closing the statement used longest ago", async () => {
    const pool = onePool(2);
    const texts = ["select 1 as a", "select 2 as b", "select 3 as c"];
    for (const text of texts) {
      await pool.query(text);
      await pool.query(text);
    }
    expect(await prepared(pool)).toEqual(["select 2 as b", "select 3 as c"]);
    // The closed one is prepared again when it is asked for, closing the next oldest.
    expect((await pool.query(texts[0] as string)).rows).toEqual([{ a: 1 }]);
    expect(await prepared(pool)).toEqual(["select 1 as a", "select 3 as c"]);
  });

  it("prepares a statement again when the server no longer has it, outside a transaction", async () => {
    const pool = onePool();
    const text = "select $1::int * 2 as twice";
    await pool.query(text, [1]);
    await pool.query(text, [2]);
    await pool.query("deallocate all");
    expect(await prepared(pool)).toEqual([]);
    expect((await pool.query(text, [21])).rows).toEqual([{ twice: 42 }]);
    expect(await prepared(pool)).toEqual([text]);
  });

  it("prepares a statement again when its result changed (a column added)", async () => {
    const pool = onePool();
    await pool.query("create temp table kept_test (id int)");
    await pool.query("insert into kept_test values (7)");
    const text = "select * from kept_test";
    await pool.query(text);
    expect((await pool.query(text)).rows).toEqual([{ id: 7 }]);
    await pool.query("alter table kept_test add column note text default 'new'");
    expect((await pool.query(text)).rows).toEqual([{ id: 7, note: "new" }]);
  });

  it("inside a transaction, fails the statement as any error does, and prepares it again after", async () => {
    const pool = onePool();
    const text = "select $1::int as n";
    await pool.query(text, [1]);
    await pool.query(text, [2]);
    const client = await pool.connect();
    try {
      await client.query("begin");
      expect((await client.query(text, [3])).rows).toEqual([{ n: 3 }]);
      await client.query("deallocate all");
      await expect(client.query(text, [4])).rejects.toMatchObject({ code: "26000" });
      await client.query("rollback");
      expect((await client.query(text, [5])).rows).toEqual([{ n: 5 }]);
    } finally {
      client.release();
    }
  });
});
