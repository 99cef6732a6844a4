import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";
import { afterAll, describe, expect, it } from "vitest";
import { SizeKeepingNodeFS } from "./pglite-files.server";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Bytes of every file of `relation` (its segments) on disk, read past PostgreSQL. */
async function bytesOnDisk(pg: PGlite, dir: string, relation: string): Promise<number> {
  const { rows } = await pg.query<{ file: string }>(`select pg_relation_filepath($1) as file`, [
    relation,
  ]);
  const file = path.join(dir, rows[0]?.file ?? "");
  const base = path.basename(file);
  return readdirSync(path.dirname(file))
    .filter((name) => name === base || name.startsWith(`${base}.`))
    .reduce((sum, name) => sum + statSync(path.join(path.dirname(file), name)).size, 0);
}

/** The table's size as PostgreSQL sees it (ANALYZE counts its pages by seeking to its end). */
async function bytesSeen(pg: PGlite): Promise<number> {
  await pg.exec("analyze note");
  const { rows } = await pg.query<{ pages: number }>(
    "select relpages as pages from pg_class where relname = 'note'",
  );
  return (rows[0]?.pages ?? -1) * 8192;
}

const summary = (pg: PGlite) =>
  pg
    .query<{ n: number; total: string }>(
      "select count(*)::int as n, coalesce(sum(id), 0)::text as total from note",
    )
    .then((r) => r.rows[0]);

describe("the embedded database's files with their sizes kept in memory", () => {
  it("grows, truncates, rewrites and drops relations as the plain file layer would, and a plain reopen finds every row", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pglite-files-"));
    dirs.push(dir);
    const pg = await PGlite.create({ fs: new SizeKeepingNodeFS(dir) });
    await pg.exec(`
      create table note (id int primary key, body text not null);
      create index note_body on note (body);
    `);
    const fill = (from: number, to: number) =>
      pg.query(
        `insert into note select i, repeat(md5(i::text), 8) from generate_series($1::int, $2::int) i`,
        [from, to],
      );

    // Many extensions of the table and its indexes (several MB, over many pages).
    await fill(1, 20_000);
    // Most rows gone, then VACUUM truncates the table's end: the size shrinks.
    await pg.query("delete from note where id > 2000");
    await pg.exec("vacuum note");
    const afterVacuum = await bytesOnDisk(pg, dir, "note");
    expect(afterVacuum).toBeLessThan(8192 * 100);
    expect(await bytesSeen(pg)).toBe(afterVacuum);
    // Rows written after the truncation land in pages that exist on disk, none past them.
    await fill(20_001, 23_000);
    expect(await summary(pg)).toEqual({
      n: 5000,
      total: String(2001 * 1000 + (20_001 + 23_000) * 1500),
    });
    // A rewrite (new files, the old ones unlinked), a checkpoint, then more rows.
    await pg.exec("vacuum full note");
    await pg.exec("checkpoint");
    expect(await bytesSeen(pg)).toBe(await bytesOnDisk(pg, dir, "note"));
    await fill(23_001, 24_000);
    // A table dropped and made again under the same name.
    await pg.exec(
      "create table scratch (n int); insert into scratch select generate_series(1, 5000)",
    );
    await pg.exec("drop table scratch; create table scratch (n int)");
    await pg.exec("insert into scratch select generate_series(1, 10)");
    expect(
      (await pg.query<{ n: number }>("select count(*)::int as n from scratch")).rows[0]?.n,
    ).toBe(10);
    // The sizes PostgreSQL works with are the files' sizes.
    expect(await bytesSeen(pg)).toBe(await bytesOnDisk(pg, dir, "note"));
    const before = await summary(pg);
    expect(before?.n).toBe(6000);
    await pg.close();

    // Opened again with PGlite's own file layer, nothing kept: every row is there and intact.
    const plain = await PGlite.create({ fs: new NodeFS(dir) });
    expect(await summary(plain)).toEqual(before);
    const { rows } = await plain.query<{ bad: number }>(
      "select count(*)::int as bad from note where body <> repeat(md5(id::text), 8)",
    );
    expect(rows[0]?.bad).toBe(0);
    // The index agrees with the table.
    await plain.exec("set enable_seqscan = off");
    const viaIndex = await plain.query<{ n: number }>(
      "select count(*)::int as n from note where body >= ''",
    );
    expect(viaIndex.rows[0]?.n).toBe(6000);
    await plain.close();
  }, 120_000);
});
