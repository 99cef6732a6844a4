import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../db/client.server";
import { getDb } from "../db/db.server";
import { updateCourse } from "./authoring.server";
import { catalogueAt, sharedVersionSql } from "./catalogue.server";
import { courseWith } from "./fixtures";

const sharedVersion = async () => {
  const [row] = await rowsOf<{ v: string | number }>(
    await getDb(),
    sql`select ${sharedVersionSql} as v`,
  );
  return Number(row?.v);
};

describe("the course catalogue", () => {
  it("is read once a version, however many ask, and again once a course changes", async () => {
    const db = await getDb();
    const c = await courseWith(["One", "Two"]);
    const version = await sharedVersion();
    const [first, second] = await Promise.all([catalogueAt(db, version), catalogueAt(db, version)]);
    expect(second).toBe(first);
    expect(first.version).toBe(version);
    expect(first.byId.get(c.id)?.chapters.map((ch) => ch.title)).toEqual(["One", "Two"]);
    // An older version asked for (a read that began before the last change) is the kept one.
    expect(await catalogueAt(db, version - 1)).toBe(first);

    await updateCourse(db, c.id, { title: "Renamed", description: "" });
    const changed = await sharedVersion();
    expect(changed).toBeGreaterThan(version);
    const next = await catalogueAt(db, changed);
    expect(next).not.toBe(first);
    expect(next.byId.get(c.id)?.title).toBe("Renamed");
  });

  it("keeps draft chapters for an admin's preview, apart from what members see", async () => {
    const db = await getDb();
    const c = await courseWith(["Shown", "Draft"]);
    await db.execute(sql`update chapter set published = false where id = ${c.chapters[1]}`);
    const found = (await catalogueAt(db, await sharedVersion())).byId.get(c.id);
    expect(found?.chapters.map((ch) => ch.title)).toEqual(["Shown", "Draft"]);
    expect(found?.publishedChapters.map((ch) => ch.title)).toEqual(["Shown"]);
  });
});
