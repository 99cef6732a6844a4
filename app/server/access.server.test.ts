import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createUser } from "~/test/helpers";
import {
  counts,
  hasPaidAccess,
  holdingsOf,
  holdingsSql,
  holdsProduct,
  type MemberAccess,
  opensCourse,
  paidAccessSql,
  planHoldersSql,
  userOpensCourseSql,
} from "./access.server";
import { adminActor } from "./admin/audit.server";
import { applyMemberAction } from "./admin/member-actions.server";
import { findMember, listMembers } from "./admin/members.server";
import { catalogueAt } from "./courses/catalogue.server";
import { courseWith } from "./courses/fixtures";
import { listCourses, setChapterDone } from "./courses/read.server";
import { rowsOf } from "./db/client.server";
import { getDb } from "./db/db.server";
import type { PurchaseProvider } from "./db/schema";
import { memberHolding, productCourse, purchase, user as userTable } from "./db/schema";
import { fulfilPurchase, revokePurchase } from "./payments/purchases.server";

async function buy(userId: string, provider: PurchaseProvider, product = "lifetime-access") {
  return fulfilPurchase(await getDb(), {
    userId,
    provider,
    providerRef: randomUUID(),
    product,
    amountCents: provider === "manual" ? 0 : 2500,
    currency: "usd",
  });
}

/** A marketplace sale credited to an account that has not proved its address yet. */
async function sellAwaitingProof(userId: string) {
  return fulfilPurchase(await getDb(), {
    userId,
    provider: "warriorplus",
    providerRef: randomUUID(),
    product: "lifetime-access",
    amountCents: 1700,
    currency: "usd",
    awaitsAddressProof: true,
  });
}

describe("hasPaidAccess", () => {
  it("denies a user with no purchase", async () => {
    const u = await createUser();
    expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(false);
  });

  it.each(["test", "stripe", "warriorplus", "manual"] as const)(
    "grants a completed %s purchase",
    async (provider) => {
      const u = await createUser();
      await buy(u.id, provider);
      expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(true);
    },
  );

  it("denies once the only purchase is refunded", async () => {
    const u = await createUser();
    const p = await buy(u.id, "stripe");
    await revokePurchase(await getDb(), { provider: "stripe", providerRef: p.providerRef });
    expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(false);
  });

  it("grants when one of several purchases is still completed", async () => {
    const u = await createUser();
    const refunded = await buy(u.id, "stripe");
    await buy(u.id, "manual");
    await revokePurchase(await getDb(), { provider: "stripe", providerRef: refunded.providerRef });
    expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(true);
  });

  it("denies a marketplace sale awaiting the proof of the address until the address is proved", async () => {
    const u = await createUser();
    const db = await getDb();
    await sellAwaitingProof(u.id);
    expect(await hasPaidAccess(db, { id: u.id, isAdmin: false })).toBe(false);
    await db.update(userTable).set({ emailVerified: true }).where(eq(userTable.id, u.id));
    expect(await hasPaidAccess(db, { id: u.id, isAdmin: false })).toBe(true);
  });

  it("grants an admin without any purchase", async () => {
    const u = await createUser({ isAdmin: true });
    expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: true })).toBe(true);
  });

  it("does not count another user's purchase", async () => {
    const buyer = await createUser({ paid: true });
    const other = await createUser();
    expect(await hasPaidAccess(await getDb(), { id: buyer.id, isAdmin: false })).toBe(true);
    expect(await hasPaidAccess(await getDb(), { id: other.id, isAdmin: false })).toBe(false);
  });

  it.each(["bump-vip", "white-label", "custom-saas"])(
    "denies a user whose only purchase is the add-on %s",
    async (product) => {
      const u = await createUser();
      await buy(u.id, "warriorplus", product);
      expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(false);
      await buy(u.id, "warriorplus", "lifetime-access");
      expect(await hasPaidAccess(await getDb(), { id: u.id, isAdmin: false })).toBe(true);
    },
  );
});

describe("the access rule is one rule", () => {
  it("the guard's check, the session's SQL and the members table and its filters agree for every kind of member", async () => {
    const db = await getDb();
    const tag = randomUUID().slice(0, 8);
    const named = (kind: string) => createUser({ name: `${kind} ${tag}` });
    const admin = await createUser({ isAdmin: true, name: `admin ${tag}` });
    const paid = await named("paid");
    await buy(paid.id, "stripe");
    const refunded = await named("refunded");
    const p = await buy(refunded.id, "stripe");
    await revokePurchase(db, { provider: "stripe", providerRef: p.providerRef });
    const addOnOnly = await named("add-on");
    await buy(addOnOnly.id, "warriorplus", "bump-vip");
    const marketplaceSale = await named("marketplace");
    await buy(marketplaceSale.id, "warriorplus");
    const unproved = await named("unproved");
    await sellAwaitingProof(unproved.id);
    const proved = await named("proved");
    await sellAwaitingProof(proved.id);
    await db.update(userTable).set({ emailVerified: true }).where(eq(userTable.id, proved.id));
    const manual = await named("manual");
    await applyMemberAction(db, adminActor(admin), manual.id, "grant");
    const revoked = await named("revoked");
    await buy(revoked.id, "stripe");
    await applyMemberAction(db, adminActor(admin), revoked.id, "revoke");
    const nobody = await named("nobody");

    const expected = {
      [admin.id]: "admin",
      [paid.id]: "member",
      [refunded.id]: "refunded",
      [addOnOnly.id]: "none",
      [marketplaceSale.id]: "member",
      [unproved.id]: "none",
      [proved.id]: "member",
      [manual.id]: "member",
      // Access revoked by the owner, nothing refunded: neither a member nor refunded.
      [revoked.id]: "none",
      [nobody.id]: "none",
    } satisfies Record<string, MemberAccess>;

    const { rows } = await listMembers(db, { q: tag, access: "all", page: 1 });
    expect(rows).toHaveLength(Object.keys(expected).length);
    const filtered = Object.fromEntries(
      await Promise.all(
        (["admin", "member", "refunded", "none"] as const).map(async (access) => [
          access,
          (await listMembers(db, { q: tag, access, page: 1 })).rows.map((r) => r.id),
        ]),
      ),
    ) as Record<MemberAccess, string[]>;
    for (const row of rows) {
      const [account] = await db
        .select({
          isAdmin: userTable.isAdmin,
          sqlSays: paidAccessSql(userTable),
          // The dashboard's count: admins, and the plan's holders as one set.
          setSays: sql<boolean>`(${userTable.isAdmin} or ${userTable.id} in ${planHoldersSql()})`,
        })
        .from(userTable)
        .where(eq(userTable.id, row.id));
      const guardSays = await hasPaidAccess(db, { id: row.id, isAdmin: account?.isAdmin === true });
      const label = `${row.name}: ${row.access}`;
      expect(row.access, label).toBe(expected[row.id]);
      expect(guardSays, label).toBe(row.access === "admin" || row.access === "member");
      expect(account?.sqlSays, label).toBe(guardSays);
      expect(account?.setSays, label).toBe(guardSays);
      expect((await findMember(db, row.id))?.access, label).toBe(row.access);
      for (const [access, ids] of Object.entries(filtered)) {
        expect(ids.includes(row.id), `${label} in the ${access} filter`).toBe(
          row.access === access,
        );
      }
    }
  });
});

describe("the holdings kept by the database", () => {
  /** Holdings (product, member, purchases that count) kept and counted by the rule that differ. */
  async function mismatches(): Promise<number> {
    const [row] = await rowsOf<{ n: unknown }>(
      await getDb(),
      sql`with kept as (
          select product, user_id, purchases::bigint as n from ${memberHolding} where purchases <> 0
        ), counted as (
          select product, user_id, count(*) as n from ${purchase}
          where ${counts(sql.raw('"purchase"."user_id"'))} group by 1, 2
        )
        select count(*) as n from (
          (select * from kept except select * from counted)
          union all
          (select * from counted except select * from kept)
        ) x`,
    );
    return Number(row?.n);
  }
  /** Which of `ids` hold the plan, by the set the console counts (planHoldersSql). */
  const holders = async (...ids: string[]) => {
    const rows = await rowsOf<{ id: string }>(
      await getDb(),
      sql`select u.id from ${userTable} u where u.id in ${planHoldersSql()} and u.id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
    return rows.map((r) => r.id).sort();
  };

  it("equal the rule after sales, refunds, revocations, address proofs, corrections by hand and deletions", async () => {
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    const [a, b, c] = [await createUser(), await createUser(), await createUser()];
    const ids = [a.id, b.id, c.id];
    const sale = await buy(a.id, "stripe");
    await buy(a.id, "stripe", "bump-vip");
    await buy(b.id, "warriorplus");
    await sellAwaitingProof(c.id);
    expect(await holders(...ids)).toEqual([a.id, b.id].sort());
    expect(await mismatches()).toBe(0);
    // The address proved, then (by hand) unproved and proved again.
    for (const verified of [true, false, true]) {
      await db.update(userTable).set({ emailVerified: verified }).where(eq(userTable.id, c.id));
      expect(await holders(c.id)).toEqual(verified ? [c.id] : []);
    }
    // Refunded, revoked by the owner, a second purchase, one moved to another member by hand.
    await revokePurchase(db, { provider: "stripe", providerRef: sale.providerRef });
    await applyMemberAction(db, adminActor(admin), b.id, "revoke");
    expect(await holders(...ids)).toEqual([c.id]);
    const again = await buy(b.id, "stripe");
    await db.update(purchase).set({ userId: a.id }).where(eq(purchase.id, again.id));
    expect(await holders(...ids)).toEqual([a.id, c.id].sort());
    expect(await mismatches()).toBe(0);
    // Deleted by hand; an account deleted with its purchases.
    await db.delete(purchase).where(eq(purchase.id, again.id));
    await db.delete(userTable).where(eq(userTable.id, c.id));
    expect(await holders(...ids)).toEqual([]);
    expect(await db.select().from(memberHolding).where(eq(memberHolding.userId, c.id))).toEqual([]);
    expect(await mismatches()).toBe(0);
  });
});

describe("a course opens by one rule, in code and in SQL", () => {
  it("agrees for every kind of member and every kind of course, and a refund closes only its product", async () => {
    const db = await getDb();
    const owner = await createUser({ isAdmin: true });
    const plan = await courseWith(["Plan 1"]);
    const whiteLabel = await courseWith(["Tool 1"]);
    const both = await courseWith(["Both 1"]);
    const nobodys = await courseWith(["Nobody 1"]);
    const actor = adminActor(owner);
    // courseWith gives each course to Lifetime Access; rows are added and taken away here
    // (not whole lists set) so that other test files sharing the database are not touched.
    await db.insert(productCourse).values([
      { product: "white-label", courseId: whiteLabel.id },
      { product: "white-label", courseId: both.id },
    ]);
    await db
      .delete(productCourse)
      .where(
        and(
          eq(productCourse.product, "lifetime-access"),
          inArray(productCourse.courseId, [whiteLabel.id, nobodys.id]),
        ),
      );

    const paid = await createUser({ paid: true });
    const refunded = await createUser();
    await revokePurchase(db, {
      provider: "stripe",
      providerRef: (await buy(refunded.id, "stripe")).providerRef,
    });
    const whiteLabelOnly = await createUser();
    await buy(whiteLabelOnly.id, "warriorplus", "white-label");
    const planAndWhiteLabel = await createUser({ paid: true });
    const wl = await buy(planAndWhiteLabel.id, "warriorplus", "white-label");
    const whiteLabelRefunded = await createUser({ paid: true });
    const wlr = await buy(whiteLabelRefunded.id, "warriorplus", "white-label");
    await revokePurchase(db, { provider: "warriorplus", providerRef: wlr.providerRef });
    const vip = await createUser({ paid: true });
    await buy(vip.id, "warriorplus", "bump-vip");
    const unproved = await createUser();
    await fulfilPurchase(db, {
      userId: unproved.id,
      provider: "warriorplus",
      providerRef: randomUUID(),
      product: "white-label",
      amountCents: 3700,
      currency: "usd",
      awaitsAddressProof: true,
    });
    const manual = await createUser();
    await applyMemberAction(db, actor, manual.id, "grant");
    const revoked = await createUser({ paid: true });
    await buy(revoked.id, "warriorplus", "white-label");
    await applyMemberAction(db, actor, revoked.id, "revoke");
    const nobody = await createUser();

    const courses = {
      plan: plan.id,
      whiteLabel: whiteLabel.id,
      both: both.id,
      nobodys: nobodys.id,
    };
    const expected: Record<string, [string, Record<keyof typeof courses, boolean>]> = {
      [owner.id]: ["admin", { plan: true, whiteLabel: true, both: true, nobodys: true }],
      [paid.id]: ["paid", { plan: true, whiteLabel: false, both: true, nobodys: false }],
      [refunded.id]: ["refunded", { plan: false, whiteLabel: false, both: false, nobodys: false }],
      [whiteLabelOnly.id]: [
        "add-on only",
        { plan: false, whiteLabel: true, both: true, nobodys: false },
      ],
      [planAndWhiteLabel.id]: [
        "plan and add-on",
        { plan: true, whiteLabel: true, both: true, nobodys: false },
      ],
      [whiteLabelRefunded.id]: [
        "add-on refunded",
        { plan: true, whiteLabel: false, both: true, nobodys: false },
      ],
      [vip.id]: ["VIP", { plan: true, whiteLabel: false, both: true, nobodys: false }],
      [unproved.id]: [
        "address not proved",
        { plan: false, whiteLabel: false, both: false, nobodys: false },
      ],
      [manual.id]: ["manual grant", { plan: true, whiteLabel: false, both: true, nobodys: false }],
      [revoked.id]: [
        "access revoked",
        { plan: false, whiteLabel: false, both: false, nobodys: false },
      ],
      [nobody.id]: ["nobody", { plan: false, whiteLabel: false, both: false, nobodys: false }],
    };
    expect(wl.status).toBe("completed");
    const catalogue = await catalogueAt(db, Number.MAX_SAFE_INTEGER);
    for (const [userId, [kind, opens]] of Object.entries(expected)) {
      const [row] = await rowsOf<{ held: unknown }>(db, sql`select ${holdingsSql(userId)} as held`);
      const held = holdingsOf(row?.held);
      // The product's files follow the same rule: the white-label course is the product's alone.
      expect(
        await holdsProduct(db, { id: userId, isAdmin: held.isAdmin }, "white-label"),
        kind,
      ).toBe(opens.whiteLabel);
      const cards = await listCourses(db, userId);
      for (const [name, courseId] of Object.entries(courses) as [keyof typeof courses, string][]) {
        const label = `${kind}, ${name} course`;
        const [open] = await rowsOf<{ open: boolean }>(
          db,
          sql`select ${userOpensCourseSql(userId, sql`${courseId}::uuid`)} as open`,
        );
        const codeSays = opensCourse(held, catalogue.byId.get(courseId)?.products ?? []);
        expect(codeSays, label).toBe(opens[name]);
        expect(open?.open, `${label} (SQL)`).toBe(codeSays);
        expect(cards.find((c) => c.id === courseId)?.locked === null, `${label} (card)`).toBe(
          codeSays,
        );
        const chapterId = catalogue.byId.get(courseId)?.chapters[0]?.id ?? "";
        expect(await setChapterDone(db, userId, chapterId, true), `${label} (mark)`).toBe(codeSays);
      }
    }
  });
});
