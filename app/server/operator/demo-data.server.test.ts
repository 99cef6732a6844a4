import { and, eq, like, type SQL, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../db/client.server";
import { getDb } from "../db/db.server";
import { purchase } from "../db/schema";
import { cli } from "./fixtures";

describe("demo data", () => {
  it("is refused without --throwaway or with bad counts", async () => {
    for (const args of [
      ["demo", "data"],
      ["demo", "data", "30"],
      ["demo", "data", "--throwaway", "0"],
      ["demo", "data", "--throwaway", "10", "x"],
      ["demo", "data", "--throwaway", "1", "2", "3"],
    ]) {
      expect((await cli(...args)).code, args.join(" ")).toBe(2);
    }
  });

  it("adds members, most with a plan and add-ons after it, none dated after now, and again adds nothing", async () => {
    const first = await cli("demo", "data", "--throwaway", "30", "70");
    // Members 10, 20 and 30 signed up and never paid: the 7 purchases of theirs are not made.
    expect(first).toMatchObject({ code: 0, out: "Added 30 demo members and 63 purchases." });
    const db = await getDb();
    const count = async (where: SQL) =>
      Number((await rowsOf(db, sql`select count(*) as n from ${where}`))[0]?.n);
    const demo = sql`p.provider_ref like 'demo-%'`;
    expect(await count(sql`"user" u where u.email like 'demo-%@demo.invalid'`)).toBe(30);
    expect(
      await count(sql`"user" u where u.email like 'demo-%@demo.invalid'
        and not exists (select 1 from ${purchase} p where p.user_id = u.id)`),
    ).toBe(3);
    expect(
      await count(sql`(select distinct p.user_id from ${purchase} p
        where ${demo} and p.product = 'lifetime-access') x`),
    ).toBe(27);
    // Member 1's plan was given by hand: $0, never refunded.
    const [grant] = await db
      .select({ amount: purchase.amountCents, status: purchase.status })
      .from(purchase)
      .where(and(like(purchase.providerRef, "demo-%"), eq(purchase.provider, "manual")));
    expect(grant).toEqual({ amount: 0, status: "completed" });
    // Every 11th is refunded (11, 22, 33, 44, 55, 66), on every provider, after its sale.
    const refunded = await rowsOf(
      db,
      sql`select p.provider, count(*) as n from ${purchase} p
        where ${demo} and p.status = 'refunded' and p.refunded_at > p.created_at group by 1 order by 1`,
    );
    expect(refunded.map((r) => [r.provider, Number(r.n)])).toEqual([
      ["stripe", 2],
      ["test", 2],
      ["warriorplus", 2],
    ]);
    expect(
      await count(
        sql`${purchase} p where ${demo} and (p.created_at > now() or p.refunded_at > now())`,
      ),
    ).toBe(0);
    expect(
      await count(sql`${purchase} a join ${purchase} p on p.user_id = a.user_id
        and p.product = 'lifetime-access' and ${demo}
        where a.provider_ref like 'demo-%' and a.product <> 'lifetime-access' and a.created_at <= p.created_at`),
    ).toBe(0);
    expect(
      await count(sql`chapter_progress x where x.user_id like 'demo-%' and x.completed_at > now()`),
    ).toBe(0);
    const again = await cli("demo", "data", "--throwaway", "30", "70");
    expect(again.out).toBe("Added 0 demo members and 0 purchases.");
  });
});
