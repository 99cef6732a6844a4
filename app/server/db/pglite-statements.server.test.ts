import { PGlite, types } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planEachCall, preparedStatements } from "./pglite-statements.server";

let pglite: PGlite;
beforeAll(async () => {
  pglite = await PGlite.create();
  await pglite.exec(`
    create table item (id int primary key, name text not null, made timestamptz not null,
                       tags text[] not null default '{}', extra jsonb);
    insert into item select i, 'item ' || i, timestamptz '2026-01-01' + i * interval '1 day',
                            array['t' || i], jsonb_build_object('n', i)
      from generate_series(1, 50) i;
  `);
});
afterAll(() => pglite.close());

const preparedNames = async () =>
  (
    await pglite.query<{ name: string }>("select name from pg_prepared_statements order by name")
  ).rows.map((r) => r.name);

describe("the embedded database's statements kept prepared", () => {
  it("answers as PGlite's own query does, in both row modes, with every kind of parameter and column", async () => {
    const client = preparedStatements(pglite);
    const text =
      "select id, name, made, tags, extra, $2::text as echo from item where id = any($1::int[]) order by id";
    const params = [[3, 4, 99], null];
    // A call's own parsers win over PGlite's for their types, as Drizzle's (timestamps kept as text).
    const ownParsers = { parsers: { [types.TIMESTAMPTZ]: (value: string) => `at ${value}` } };
    for (const options of [
      undefined,
      { rowMode: "array" as const },
      ownParsers,
      { rowMode: "array" as const, ...ownParsers },
    ]) {
      const own = await pglite.query(text, params, options);
      // The first call prepares; the next six run the kept statement, the last ones on its generic plan.
      for (let i = 0; i < 8; i++) {
        const kept = await client.query(text, params, options);
        expect(kept.rows).toEqual(own.rows);
        expect(kept.fields).toEqual(own.fields);
      }
    }
    const [made] = (await client.query<{ made: string }>(text, params, ownParsers)).rows;
    expect(made?.made).toMatch(/^at 2026-01-04/);
    const [plain] = (await client.query<{ made: Date }>(text, params)).rows;
    expect(plain?.made).toBeInstanceOf(Date);
    const write = await client.query("update item set name = $1 where id <= $2", ["renamed", 2]);
    expect(write.affectedRows).toBe(2);
    expect(
      (await client.query("select count(*)::int as n from item where name = 'renamed'")).rows,
    ).toEqual([{ n: 2 }]);
  });

  it("gives each call its own parameters, before and after PostgreSQL keeps the generic plan", async () => {
    const client = preparedStatements(pglite);
    for (let id = 10; id < 30; id++) {
      const { rows } = await client.query<{ name: string }>("select name from item where id = $1", [
        id,
      ]);
      expect(rows).toEqual([{ name: `item ${id}` }]);
    }
  });

  it("keeps at most the statements it is allowed, closing the one used longest ago", async () => {
    await pglite.exec("deallocate all");
    const client = preparedStatements(pglite, 2);
    // A text called once is not kept; called again, it is.
    await client.query("select 1 as n");
    expect(await preparedNames()).toEqual([]);
    const texts = [
      "select 1 as n",
      "select 2 as n",
      "select 2 as n",
      "select 3 as n",
      "select 3 as n",
    ];
    for (const text of texts) await client.query(text);
    expect(await preparedNames()).toHaveLength(2);
    // The first, closed, is prepared again when it is used again.
    expect((await client.query("select 1 as n")).rows).toEqual([{ n: 1 }]);
    expect(await preparedNames()).toHaveLength(2);
  });

  it("does not keep a statement that asks to be planned at each call", async () => {
    await pglite.exec("deallocate all");
    const client = preparedStatements(pglite);
    const text = `${planEachCall} select count(*)::int as n from item where id >= $1 and id < $2`;
    expect((await client.query(text, [1, 11])).rows).toEqual([{ n: 10 }]);
    const db = drizzle({ client });
    await db.transaction(async (tx) => {
      await tx.execute(sql`${sql.raw(planEachCall)} select 1`);
    });
    expect(await preparedNames()).toEqual([]);
  });

  it("reports a bad statement and goes on; a statement PostgreSQL lost or can no longer run is prepared again", async () => {
    await pglite.exec("deallocate all");
    const client = preparedStatements(pglite);
    for (let i = 0; i < 2; i++) {
      await expect(client.query("selec 1")).rejects.toMatchObject({ code: "42601" });
      expect((await client.query("select 5 as n")).rows).toEqual([{ n: 5 }]);
    }
    expect(await preparedNames()).toHaveLength(1);

    // Someone on the socket deallocates every statement: the next call prepares it again.
    await pglite.exec("deallocate all");
    expect((await client.query("select 5 as n")).rows).toEqual([{ n: 5 }]);

    // The table's columns change under a kept `select *`.
    await pglite.exec("create table shape (a int); insert into shape values (1)");
    for (let i = 0; i < 2; i++) {
      expect((await client.query("select * from shape")).rows).toEqual([{ a: 1 }]);
    }
    await pglite.exec("alter table shape add column b int default 2");
    expect((await client.query("select * from shape")).rows).toEqual([{ a: 1, b: 2 }]);
  });

  it("runs Drizzle's transactions: committed together, or rolled back together on an error", async () => {
    const db = drizzle({ client: preparedStatements(pglite) });
    await db.transaction(async (tx) => {
      await tx.execute(sql`update item set name = 'in tx' where id = 40`);
      await tx.execute(sql`update item set name = 'in tx' where id = 41`);
    });
    const count = async () =>
      (
        await pglite.query<{ n: number }>(
          "select count(*)::int as n from item where name = 'in tx'",
        )
      ).rows[0]?.n;
    expect(await count()).toBe(2);

    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`update item set name = 'in tx' where id = 42`);
        await tx.execute(sql`insert into item (id, name, made) values (1, 'twice', now())`);
      }),
    ).rejects.toThrow();
    expect(await count()).toBe(2);
    // The connection is usable after the rollback.
    const inside = await db.transaction(async (tx) => {
      await tx.execute(sql`update item set name = 'later' where id = 43`);
      return (await tx.execute<{ name: string }>(sql`select name from item where id = 43`)).rows;
    });
    expect(inside).toEqual([{ name: "later" }]);
  });
});
