import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type MembersQuery, membersQuerySchema, membersSearch } from "~/lib/admin-forms";
import { offerDefaults } from "~/lib/offer";
import { createUser, purchasesOf } from "~/test/helpers";
import { hasPaidAccess } from "../access.server";
import {
  createChapter,
  createCourse,
  deleteChapter,
  deleteCourse,
} from "../courses/authoring.server";
import { setChapterDone } from "../courses/read.server";
import type { Db } from "../db/client.server";
import { getDb } from "../db/db.server";
import {
  auditLog,
  chapter,
  chapterProgress,
  course,
  emailOutbox,
  memberProgress,
  memberSpend,
  paymentIssue,
  purchase,
  refund,
  session,
  user,
} from "../db/schema";
import { fulfilPurchase, revokePurchase } from "../payments/purchases.server";
import { adminActor } from "./audit.server";
import { applyBulkAccess, previewBulkAccess } from "./bulk-access.server";
import { csvCell, csvLine } from "./csv.server";
import { applyMemberAction } from "./member-actions.server";
import { allMembers, findMember, listMembers, type MembersQueryInput } from "./members.server";
import { refundPurchase } from "./refunds.server";
import {
  attachPayment,
  dismissPayment,
  likelyProduct,
  unmatchedPayments,
} from "./unmatched-payments.server";

const everyone = { access: "all", page: 1 } as const;

async function auditOf(target: string) {
  return (await getDb()).select().from(auditLog).where(eq(auditLog.target, target));
}

describe("the members table", () => {
  it("shows each account's access by the access rule, how they paid and two-factor", async () => {
    const tag = randomUUID().slice(0, 8);
    const db = await getDb();
    const admin = await createUser({ isAdmin: true, name: `Ada ${tag}` });
    const member = await createUser({ paid: true, name: `Mel ${tag}` });
    const refunded = await createUser({ paid: true, name: `Rey ${tag}` });
    const [bought] = await purchasesOf(refunded.id);
    await revokePurchase(db, { provider: "test", providerRef: bought?.providerRef ?? "" });
    const nobody = await createUser({ name: `Nob ${tag}` });

    const { rows, total } = await listMembers(db, { ...everyone, q: tag });
    expect(total).toBe(4);
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(byId[admin.id]?.access).toBe("admin");
    expect(byId[member.id]).toMatchObject({ access: "member", paidVia: "test" });
    expect(byId[refunded.id]).toMatchObject({ access: "refunded", paidVia: "test" });
    expect(byId[nobody.id]).toMatchObject({
      access: "none",
      paidVia: null,
      twoFactorEnabled: false,
    });
    // Signed up (a session each): last seen is set.
    expect(byId[nobody.id]?.lastActiveAt).toBeInstanceOf(Date);
    // Newest first.
    expect(rows.map((r) => r.id)).toEqual([nobody.id, refunded.id, member.id, admin.id]);
    // The table agrees with the rule the guards use.
    for (const row of rows) {
      const isAdmin = row.access === "admin";
      expect(await hasPaidAccess(db, { id: row.id, isAdmin }), row.access).toBe(
        row.access === "admin" || row.access === "member",
      );
    }
  });

  it("searches name or e-mail case-insensitively, filters by access and pages by 50", async () => {
    const tag = randomUUID().slice(0, 8);
    const db = await getDb();
    const member = await createUser({ paid: true, name: `Percent%_${tag}` });
    await createUser({ name: `Other ${tag}` });
    expect(
      (await listMembers(db, { ...everyone, q: member.email.toUpperCase() })).rows.map((r) => r.id),
    ).toEqual([member.id]);
    // LIKE's wildcards in the search are taken literally.
    expect((await listMembers(db, { ...everyone, q: `%_${tag}` })).total).toBe(1);
    expect((await listMembers(db, { ...everyone, q: `t%_${tag}` })).total).toBe(1);
    const paid = await listMembers(db, { q: tag, access: "member", page: 1 });
    expect(paid.rows.map((r) => r.id)).toEqual([member.id]);
    expect((await listMembers(db, { q: tag, access: "none", page: 1 })).total).toBe(1);
    // Past the last page: no rows, the total still right.
    expect(await listMembers(db, { q: tag, access: "all", page: 9 })).toEqual({
      rows: [],
      total: 2,
    });
  });

  it("pages hold 50 and the CSV batches hold every match once", async () => {
    const tag = randomUUID().slice(0, 8);
    const db = await getDb();
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) {
      const [row] = await db
        .insert(user)
        .values({
          id: randomUUID(),
          name: `Bulk ${tag} ${i}`,
          email: `bulk-${tag}-${i}@example.test`,
        })
        .returning({ id: user.id });
      ids.push(row?.id ?? "");
    }
    const first = await listMembers(db, { ...everyone, q: tag });
    const second = await listMembers(db, { ...everyone, q: tag, page: 2 });
    expect(first.rows).toHaveLength(50);
    expect(second.rows).toHaveLength(3);
    expect(first.total).toBe(53);
    const exported: string[] = [];
    for await (const batch of allMembers(db, { q: tag, access: "all" }, 7)) {
      exported.push(...batch.map((r) => r.id));
    }
    expect(exported).toEqual([...first.rows, ...second.rows].map((r) => r.id));
    expect(new Set(exported)).toEqual(new Set(ids));
  });
});

/** An admin acting on a new account. */
async function adminAndTarget() {
  const admin = await createUser({ isAdmin: true });
  return { db: await getDb(), admin, target: await createUser(), actor: adminActor(admin) };
}

describe("actions on a member", () => {
  it("grant gives access on the next check, revoke takes it away, each in the audit log", async () => {
    const { db, admin, target, actor } = await adminAndTarget();
    expect(await applyMemberAction(db, actor, target.id, "grant")).toMatchObject({ ok: true });
    expect(await hasPaidAccess(db, { id: target.id, isAdmin: false })).toBe(true);
    expect(await purchasesOf(target.id)).toMatchObject([
      { provider: "manual", amountCents: 0, status: "completed", product: "lifetime-access" },
    ]);
    expect(await applyMemberAction(db, actor, target.id, "grant")).toEqual({
      ok: false,
      error: `${target.email} already has Lifetime Access.`,
    });
    expect(await applyMemberAction(db, actor, target.id, "revoke")).toMatchObject({ ok: true });
    expect(await hasPaidAccess(db, { id: target.id, isAdmin: false })).toBe(false);
    expect(await applyMemberAction(db, actor, target.id, "revoke")).toMatchObject({ ok: false });
    const kinds = (await auditOf(target.email)).map((e) => [e.kind, e.actor, e.actorId]);
    expect(kinds.sort()).toEqual([
      ["member.grant", admin.email, admin.id],
      ["member.revoke", admin.email, admin.id],
    ]);
    expect(await applyMemberAction(db, actor, randomUUID(), "grant")).toBeNull();
  });

  it("revoke ends a paying member's access and books nothing: the sale stays a sale", async () => {
    const db = await getDb();
    const actor = adminActor(await createUser({ isAdmin: true }));
    const buyer = await createUser({ paid: true });
    const result = await applyMemberAction(db, actor, buyer.id, "revoke");
    expect(result).toEqual({
      ok: true,
      message: `Revoked access for ${buyer.email}: 1 purchase no longer gives access. Nothing was refunded.`,
    });
    expect(await hasPaidAccess(db, { id: buyer.id, isAdmin: false })).toBe(false);
    const [kept] = await purchasesOf(buyer.id);
    expect(kept).toMatchObject({ status: "completed", refundedAt: null });
    expect(kept?.accessRevokedAt).toBeInstanceOf(Date);
    // Granted again: a manual purchase beside it.
    expect(await applyMemberAction(db, actor, buyer.id, "grant")).toMatchObject({ ok: true });
    expect(await hasPaidAccess(db, { id: buyer.id, isAdmin: false })).toBe(true);
  });

  it("make and remove admin: never yourself, never the last admin", async () => {
    const { db, admin, target: other, actor } = await adminAndTarget();
    expect(await applyMemberAction(db, actor, admin.id, "remove-admin")).toEqual({
      ok: false,
      error: "You cannot change your own admin role.",
    });
    expect(await applyMemberAction(db, actor, other.id, "make-admin")).toMatchObject({ ok: true });
    expect(await applyMemberAction(db, actor, other.id, "make-admin")).toMatchObject({ ok: false });
    expect(await applyMemberAction(db, actor, other.id, "remove-admin")).toMatchObject({
      ok: true,
    });
    const [row] = await db
      .select({ isAdmin: user.isAdmin })
      .from(user)
      .where(eq(user.id, other.id));
    expect(row?.isAdmin).toBe(false);

    // The last admin: with every other admin gone, removing the one left is refused.
    await db
      .transaction(async (tx) => {
        await tx.update(user).set({ isAdmin: false }).where(eq(user.isAdmin, true));
        await tx.update(user).set({ isAdmin: true }).where(eq(user.id, other.id));
        const result = await applyMemberAction(
          tx as never,
          { id: admin.id, label: admin.email },
          other.id,
          "remove-admin",
        );
        expect(result).toEqual({ ok: false, error: "The last admin cannot be removed." });
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error) || !/rollback/i.test(error.message)) throw error;
      });
  });

  it("sign out everywhere ends every session; a password link is queued", async () => {
    const { db, target, actor } = await adminAndTarget();
    expect(await applyMemberAction(db, actor, target.id, "sign-out")).toMatchObject({ ok: true });
    expect(await db.select().from(session).where(eq(session.userId, target.id))).toEqual([]);
    expect(await applyMemberAction(db, actor, target.id, "password-link")).toMatchObject({
      ok: true,
    });
    const mail = await db.select().from(emailOutbox).where(eq(emailOutbox.to, target.email));
    expect(mail.some((m) => /password/i.test(m.subject))).toBe(true);
    expect((await auditOf(target.email)).map((e) => e.kind).sort()).toEqual([
      "member.password-link",
      "member.sign-out",
    ]);
  });

  it("a member's page shows purchases, progress per course and sessions", async () => {
    const db = await getDb();
    const member = await createUser({ paid: true });
    const found = await findMember(db, member.id);
    expect(found?.access).toBe("member");
    expect(found?.purchases).toHaveLength(1);
    expect(found?.sessions).toHaveLength(1);
    expect(found?.progress.length).toBeGreaterThan(0);
    expect(await findMember(db, randomUUID())).toBeNull();
  });

  it("a member's progress counts the chapters members can read, not drafts", async () => {
    const db = await getDb();
    const member = await createUser({ paid: true });
    const { id: courseId } = await createCourse(db, {
      title: `Progress ${randomUUID()}`,
      description: "",
    });
    const made = [];
    for (const title of ["One", "Two", "Draft"]) {
      made.push(await createChapter(db, { courseId, title, contentHtml: `<p>${title}</p>` }));
    }
    const [one, , draft] = made.map((c) => c?.id ?? "");
    await db
      .update(chapter)
      .set({ published: false })
      .where(eq(chapter.id, draft ?? ""));
    await setChapterDone(db, member.id, one ?? "", true);
    // A mark made while the chapter was still published stays in the table.
    await db
      .update(chapter)
      .set({ published: true })
      .where(eq(chapter.id, draft ?? ""));
    await setChapterDone(db, member.id, draft ?? "", true);
    await db
      .update(chapter)
      .set({ published: false })
      .where(eq(chapter.id, draft ?? ""));
    const found = await findMember(db, member.id);
    expect(found?.progress.find((p) => p.courseId === courseId)).toMatchObject({
      chapters: 2,
      done: 1,
    });
  });
});

describe("the student list", () => {
  /** A course of two published chapters and a draft; `done` of the published ones marked by `userId`. */
  async function courseWith(db: Db) {
    const { id: courseId } = await createCourse(db, {
      title: `List ${randomUUID()}`,
      description: "",
    });
    const ids: string[] = [];
    for (const title of ["One", "Two", "Draft"]) {
      ids.push(
        (await createChapter(db, { courseId, title, contentHtml: `<p>${title}</p>` }))?.id ?? "",
      );
    }
    await db
      .update(chapter)
      .set({ published: false })
      .where(eq(chapter.id, ids[2] ?? ""));
    return { courseId, chapters: ids.slice(0, 2) };
  }

  async function buy(
    userId: string,
    product: string,
    amountCents: number,
    provider: "test" | "stripe" = "test",
  ) {
    const db = await getDb();
    return fulfilPurchase(db, {
      userId,
      provider,
      providerRef: randomUUID(),
      product,
      amountCents,
      currency: "usd",
    });
  }

  it("shows progress, spend less refunds, products held and last active; sorts by each", async () => {
    const tag = randomUUID().slice(0, 8);
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    const { chapters } = await courseWith(db);
    const big = await createUser({ paid: true, name: `Big ${tag}` }); // $25 plan
    const bump = await buy(big.id, "bump-vip", 495);
    await refundPurchase(
      db,
      adminActor({ id: admin.id, email: admin.email }),
      { userId: big.id, purchaseId: bump.id, amountCents: 200, refundedBefore: 0 },
      undefined,
    );
    const reader = await createUser({ paid: true, name: `Reader ${tag}` });
    for (const id of chapters) await setChapterDone(db, reader.id, id, true);
    const idle = await createUser({ name: `Idle ${tag}` });

    const { rows } = await listMembers(db, { q: tag, sort: "spend", dir: "desc" });
    expect(rows.map((r) => r.id)).toEqual([big.id, reader.id, idle.id]);
    expect(rows[0]).toMatchObject({ spendCents: 2500 + 495 - 200, chaptersDone: 0 });
    expect(rows[0]?.products).toEqual(["bump-vip", "lifetime-access"]);
    expect(rows[1]).toMatchObject({ spendCents: 2500, chaptersDone: 2 });
    expect(rows[1]?.chapters).toBeGreaterThanOrEqual(2);
    expect(rows[2]).toMatchObject({ spendCents: 0, chaptersDone: 0, products: [] });
    // Marking a chapter is activity: the reader's last activity is at least their last mark.
    expect(rows[1]?.lastActiveAt).toBeInstanceOf(Date);

    const order = async (sort: MembersQuery["sort"], dir: "asc" | "desc") =>
      (await listMembers(db, { q: tag, sort, dir })).rows.map((r) => r.id);
    expect(await order("spend", "asc")).toEqual([idle.id, reader.id, big.id]);
    expect((await order("progress", "desc"))[0]).toBe(reader.id);
    expect(await order("name", "asc")).toEqual([big.id, idle.id, reader.id]);
    expect(await order("name", "desc")).toEqual([reader.id, idle.id, big.id]);
    expect(await order("joined", "asc")).toEqual([big.id, reader.id, idle.id]);
    // Filtered and sorted by progress over every course: one pass serves both.
    const notStarted = await listMembers(db, { q: tag, progress: "not-started", sort: "progress" });
    expect(notStarted.rows.map((r) => r.id)).toEqual([idle.id, big.id]);
    expect(notStarted.total).toBe(2);
    // Ties in the same direction: joined, oldest first when ascending.
    expect(await order("access", "asc")).toEqual([big.id, reader.id, idle.id]);
    expect(await order("access", "desc")).toEqual([idle.id, reader.id, big.id]);
  });

  it("counts no mark on a draft chapter or a draft course's chapter in progress over every course", async () => {
    const tag = randomUUID().slice(0, 8);
    const db = await getDb();
    const { chapters } = await courseWith(db);
    const { id: hiddenCourse } = await createCourse(db, {
      title: `Hidden ${tag}`,
      description: "",
    });
    const hidden = (
      await createChapter(db, { courseId: hiddenCourse, title: "H", contentHtml: "" })
    )?.id;
    const onDraftChapter = await createUser({ paid: true, name: `Draft chapter ${tag}` });
    const onDraftCourse = await createUser({ paid: true, name: `Draft course ${tag}` });
    const reader = await createUser({ paid: true, name: `Reader ${tag}` });
    // Marked while published, then taken back to drafts.
    await setChapterDone(db, onDraftChapter.id, chapters[1] ?? "", true);
    await setChapterDone(db, onDraftCourse.id, hidden ?? "", true);
    await setChapterDone(db, reader.id, chapters[0] ?? "", true);
    await db
      .update(chapter)
      .set({ published: false })
      .where(eq(chapter.id, chapters[1] ?? ""));
    await db.update(course).set({ published: false }).where(eq(course.id, hiddenCourse));

    const ids = async (query: Partial<MembersQuery>) =>
      (await listMembers(db, { q: tag, ...query })).rows.map((r) => r.id).sort();
    expect(await ids({ progress: "not-started" })).toEqual(
      [onDraftChapter.id, onDraftCourse.id].sort(),
    );
    expect(await ids({ progress: "in-progress" })).toEqual([reader.id]);
    const sorted = await listMembers(db, { q: tag, sort: "progress", dir: "desc" });
    expect(sorted.rows[0]?.id).toBe(reader.id);
    expect(sorted.rows.map((r) => r.chaptersDone)).toEqual([1, 0, 0]);
  });

  it("filters by product, provider, join date and progress in a course; the CSV holds exactly the filtered", async () => {
    const tag = randomUUID().slice(0, 8);
    const db = await getDb();
    const { courseId, chapters } = await courseWith(db);
    const started = await createUser({ paid: true, name: `Started ${tag}` });
    await setChapterDone(db, started.id, chapters[0] ?? "", true);
    const finished = await createUser({ paid: true, name: `Finished ${tag}` });
    for (const id of chapters) await setChapterDone(db, finished.id, id, true);
    await buy(finished.id, "white-label", 3700, "stripe");
    const fresh = await createUser({ name: `Fresh ${tag}` });
    await db
      .update(user)
      .set({ createdAt: new Date("2020-03-04T10:00:00Z") })
      .where(eq(user.id, fresh.id));

    const ids = async (query: Omit<MembersQueryInput, "q">) => {
      const { rows, total } = await listMembers(db, { ...query, q: tag });
      const csv: string[] = [];
      for await (const batch of allMembers(db, { ...query, q: tag }, 1)) {
        csv.push(...batch.map((r) => r.id));
      }
      expect(total).toBe(rows.length);
      expect(new Set(csv)).toEqual(new Set(rows.map((r) => r.id)));
      return rows.map((r) => r.id).sort();
    };
    const sorted = (...users: { id: string }[]) => users.map((u) => u.id).sort();
    expect(await ids({ product: "white-label" })).toEqual(sorted(finished));
    expect(await ids({ product: "lifetime-access" })).toEqual(sorted(started, finished));
    // A marketplace sale to an address not yet proved counts once it is (the access rule).
    const waiting = await createUser({ name: `Waiting ${tag}` });
    await db.update(user).set({ emailVerified: false }).where(eq(user.id, waiting.id));
    await db.insert(purchase).values({
      userId: waiting.id,
      provider: "warriorplus",
      providerRef: randomUUID(),
      product: "white-label",
      amountCents: 3700,
      awaitsAddressProof: true,
    });
    expect(await ids({ product: "white-label" })).toEqual(sorted(finished));
    await db.update(user).set({ emailVerified: true }).where(eq(user.id, waiting.id));
    expect(await ids({ product: "white-label" })).toEqual(sorted(finished, waiting));
    await db.delete(user).where(eq(user.id, waiting.id));
    expect(await ids({ provider: "stripe" })).toEqual(sorted(finished));
    expect(await ids({ provider: "test" })).toEqual(sorted(started, finished));
    expect(await ids({ joinedTo: "2020-03-04" })).toEqual(sorted(fresh));
    expect(await ids({ joinedFrom: "2020-03-05" })).toEqual(sorted(started, finished));
    expect(await ids({ joinedFrom: "2020-03-04", joinedTo: "2020-03-04" })).toEqual(sorted(fresh));
    expect(await ids({ progress: "not-started", course: courseId })).toEqual(sorted(fresh));
    expect(await ids({ progress: "in-progress", course: courseId })).toEqual(sorted(started));
    expect(await ids({ progress: "finished", course: courseId })).toEqual(sorted(finished));
    expect(await ids({ progress: "not-started" })).toEqual(sorted(fresh));
    expect(await ids({ progress: "finished", course: courseId, provider: "test" })).toEqual(
      sorted(finished),
    );
  });

  it("the query string keeps only what differs from the defaults, and bad values fall back", () => {
    const query = membersQuerySchema.parse({
      q: "ann",
      sort: "spend",
      dir: "asc",
      product: "nope",
      joinedFrom: "2026-02-30",
      page: "2",
    });
    expect(query).toMatchObject({ product: null, joinedFrom: null, sort: "spend", page: 2 });
    expect(membersSearch(query).toString()).toBe("q=ann&sort=spend&dir=asc&page=2");
    expect(membersSearch(query, { page: 1 }).toString()).toBe("q=ann&sort=spend&dir=asc");
  });

  it("bulk grant and revoke change only who needs it, once, each member in the audit log", async () => {
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    const actor = adminActor({ id: admin.id, email: admin.email });
    const holder = await createUser({ paid: true });
    await buy(holder.id, "bump-vip", 495);
    const other = await createUser({ paid: true });
    const nobody = await createUser();
    const ticked = [holder.id, other.id, nobody.id, randomUUID()];

    const preview = await previewBulkAccess(db, "bulk-grant", "bump-vip", ticked);
    expect(preview.changes.map((t) => t.id).sort()).toEqual([other.id, nobody.id].sort());
    expect(preview.unchanged.map((t) => t.id)).toEqual([holder.id]);
    // Two submits at once: each member granted once.
    const [first, second] = await Promise.all([
      applyBulkAccess(db, actor, "bulk-grant", "bump-vip", ticked),
      applyBulkAccess(db, actor, "bulk-grant", "bump-vip", ticked),
    ]);
    expect([first.changed, second.changed].sort()).toEqual([0, 2]);
    expect(
      (await purchasesOf(nobody.id)).map((p) => [p.product, p.provider, p.amountCents]),
    ).toEqual([["bump-vip", "manual", 0]]);
    // An add-on opens nothing by itself: no access for the one without the plan.
    expect(await hasPaidAccess(db, { id: nobody.id, isAdmin: false })).toBe(false);
    expect((await auditOf(nobody.email)).map((e) => [e.kind, e.detail])).toEqual([
      ["member.grant", "VIP Upgrade"],
    ]);

    const revoked = await applyBulkAccess(db, actor, "bulk-revoke", "bump-vip", [
      holder.id,
      other.id,
    ]);
    expect(revoked.message).toBe("Revoked VIP Upgrade from 2 members. Nothing was refunded.");
    // The plan is untouched: they keep access; the bump's purchase stays a sale.
    expect(await hasPaidAccess(db, { id: holder.id, isAdmin: false })).toBe(true);
    const held = await purchasesOf(holder.id);
    expect(held.find((p) => p.product === "bump-vip")).toMatchObject({ status: "completed" });
    expect(held.find((p) => p.product === "bump-vip")?.accessRevokedAt).toBeInstanceOf(Date);
    expect(held.find((p) => p.product === "lifetime-access")?.accessRevokedAt).toBeNull();
    expect((await previewBulkAccess(db, "bulk-revoke", "bump-vip", [holder.id])).changes).toEqual(
      [],
    );

    const plan = await applyBulkAccess(db, actor, "bulk-revoke", "lifetime-access", [
      other.id,
      admin.id,
    ]);
    expect(plan).toMatchObject({ changed: 1 });
    expect(plan.message).toContain("Admins keep access as admins.");
    expect(await hasPaidAccess(db, { id: other.id, isAdmin: false })).toBe(false);
  });
});

describe("the count of marks kept by the database", () => {
  it("equals the member's marks after marking, undoing, deleting chapters and courses, and SQL by hand", async () => {
    const db = await getDb();
    const kept = async (userId: string) =>
      (
        await db
          .select({ marks: memberProgress.marks })
          .from(memberProgress)
          .where(eq(memberProgress.userId, userId))
      )[0]?.marks ?? 0;
    const counted = async (userId: string) =>
      (await db.select().from(chapterProgress).where(eq(chapterProgress.userId, userId))).length;
    const reader = await createUser({ paid: true });
    const other = await createUser({ paid: true });
    const courses = [];
    for (const title of ["A", "B"]) {
      const { id: courseId } = await createCourse(db, { title: `Count ${title}`, description: "" });
      const chapters = [];
      for (const name of ["1", "2", "3"]) {
        chapters.push(
          (await createChapter(db, { courseId, title: name, contentHtml: "<p>x</p>" }))?.id ?? "",
        );
      }
      courses.push({ courseId, chapters });
    }
    const [a, b] = courses as [(typeof courses)[0], (typeof courses)[0]];
    for (const id of [...a.chapters, ...b.chapters]) await setChapterDone(db, reader.id, id, true);
    await setChapterDone(db, reader.id, a.chapters[0] ?? "", true); // again: nothing new
    await setChapterDone(db, other.id, a.chapters[0] ?? "", true);
    expect(await kept(reader.id)).toBe(6);
    await setChapterDone(db, reader.id, a.chapters[1] ?? "", false);
    await setChapterDone(db, reader.id, a.chapters[1] ?? "", false); // again: nothing gone
    expect(await kept(reader.id)).toBe(5);
    await deleteChapter(db, a.chapters[2] ?? "");
    expect(await kept(reader.id)).toBe(4);
    await deleteCourse(db, b.courseId);
    expect(await kept(reader.id)).toBe(1);
    // Written by hand, several members in one statement.
    await db.execute(sql`insert into ${chapterProgress} (user_id, chapter_id, course_id)
      select u.id, ${a.chapters[1]}, ${a.courseId} from ${user} u where u.id in (${reader.id}, ${other.id})`);
    expect([await kept(reader.id), await kept(other.id)]).toEqual([2, 2]);
    // Moved to another member by hand.
    const third = await createUser({ paid: true });
    await db
      .update(chapterProgress)
      .set({ userId: third.id })
      .where(
        and(
          eq(chapterProgress.userId, reader.id),
          eq(chapterProgress.chapterId, a.chapters[0] ?? ""),
        ),
      );
    expect([await kept(reader.id), await kept(third.id)]).toEqual([1, 1]);
    for (const member of [reader, other, third]) {
      expect(await kept(member.id)).toBe(await counted(member.id));
    }
  });
});

describe("the spend kept by the database", () => {
  /** Members whose kept spend differs from their purchases less their refunds, counted again. */
  async function mismatches(): Promise<number> {
    const rows = await (await getDb()).execute(sql`
      with counted as (
        select u.id as user_id,
          coalesce((select sum(p.amount_cents) from ${purchase} p where p.user_id = u.id), 0)
            - coalesce((select sum(r.amount_cents) from ${refund} r where r.user_id = u.id), 0) as cents
        from ${user} u
      )
      select count(*) as n from counted c left join ${memberSpend} ms on ms.user_id = c.user_id
      where coalesce(ms.cents, 0) <> c.cents`);
    return Number((rows as unknown as { rows: { n: unknown }[] }).rows[0]?.n);
  }

  it("equals each member's purchases less refunds after sales, refunds, corrections, moves and deletions", async () => {
    const db = await getDb();
    const buyer = await createUser({ name: "Spend Kept" });
    const other = await createUser({ name: "Spend Other" });
    const spend = async (userId: string) =>
      (await listMembers(db, { q: userId === buyer.id ? "Spend Kept" : "Spend Other" })).rows[0]
        ?.spendCents;
    const ref = () => `spend-${randomUUID()}`;
    const sale = (userId: string, product: string, amountCents: number) => ({
      userId,
      provider: "stripe" as const,
      providerRef: ref(),
      product,
      amountCents,
    });
    const made = await db
      .insert(purchase)
      .values([
        sale(buyer.id, "lifetime-access", 2500),
        sale(buyer.id, "bump-vip", 495),
        sale(other.id, "white-label", 3700),
      ])
      .returning();
    const [plan, bump, label] = made as [(typeof made)[0], (typeof made)[0], (typeof made)[0]];
    expect([await spend(buyer.id), await spend(other.id)]).toEqual([2995, 3700]);
    // A partial refund, then the rest when the purchase is marked refunded (the database adds it).
    await db.execute(
      sql`insert into ${refund} (purchase_id, amount_cents) values (${plan.id}, 1000)`,
    );
    await db.update(purchase).set({ status: "refunded" }).where(eq(purchase.id, plan.id));
    expect(await spend(buyer.id)).toBe(495);
    // Corrected by hand: another amount; a sale moved to another member; a refund taken back.
    await db.update(purchase).set({ amountCents: 3500 }).where(eq(purchase.id, label.id));
    await db.update(purchase).set({ userId: other.id }).where(eq(purchase.id, bump.id));
    await db.execute(
      sql`insert into ${refund} (purchase_id, amount_cents) values (${bump.id}, 95)`,
    );
    expect([await spend(buyer.id), await spend(other.id)]).toEqual([0, 3500 + 495 - 95]);
    await db.delete(refund).where(eq(refund.purchaseId, bump.id));
    await db.delete(purchase).where(eq(purchase.id, plan.id));
    expect([await spend(buyer.id), await spend(other.id)]).toEqual([0, 3995]);
    expect(await mismatches()).toBe(0);
    // An account deleted with its purchases and refunds leaves nothing kept.
    await db.execute(
      sql`insert into ${refund} (purchase_id, amount_cents) values (${label.id}, 700)`,
    );
    await db.delete(user).where(eq(user.id, other.id));
    expect(await db.select().from(memberSpend).where(eq(memberSpend.userId, other.id))).toEqual([]);
    expect(await mismatches()).toBe(0);
  });
});

describe("unmatched payments", () => {
  it("attach grants the plan under the payment's reference and resolves it; dismiss resolves", async () => {
    const db = await getDb();
    const admin = await createUser({ isAdmin: true });
    const buyer = await createUser();
    const ref = `cs_test_${randomUUID()}`;
    const other = `cs_test_${randomUUID()}`;
    for (const providerRef of [ref, other]) {
      await db.insert(paymentIssue).values({
        provider: "stripe",
        providerRef,
        reason: "unknown-user",
        userRef: "someone",
        amountCents: 2500,
        currency: "usd",
      });
    }
    expect((await unmatchedPayments(db)).map((p) => p.providerRef)).toEqual(
      expect.arrayContaining([ref, other]),
    );
    const actor = adminActor(admin);
    expect(
      await attachPayment(
        db,
        actor,
        { provider: "stripe", providerRef: ref },
        "nobody@example.test",
      ),
    ).toMatchObject({ ok: false });
    expect(
      await attachPayment(
        db,
        actor,
        { provider: "stripe", providerRef: ref },
        buyer.email.toLowerCase(),
      ),
    ).toMatchObject({ ok: true });
    expect(await hasPaidAccess(db, { id: buyer.id, isAdmin: false })).toBe(true);
    expect(await purchasesOf(buyer.id)).toMatchObject([
      { provider: "stripe", providerRef: ref, amountCents: 2500 },
    ]);
    expect(
      await attachPayment(db, actor, { provider: "stripe", providerRef: ref }, buyer.email),
    ).toMatchObject({ ok: false });
    expect(
      await dismissPayment(db, actor, { provider: "stripe", providerRef: other }),
    ).toMatchObject({ ok: true });
    const open = (await unmatchedPayments(db)).map((p) => p.providerRef);
    expect(open).not.toContain(ref);
    expect(open).not.toContain(other);
    const entries = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, admin.id)));
    expect(entries.map((e) => e.kind).sort()).toEqual(["payment.attach", "payment.dismiss"]);
  });
});

describe("attaching a payment for something other than the plan", () => {
  it("records the product and amount paid on the day it was paid, and warns when the account holds it", async () => {
    const db = await getDb();
    const actor = adminActor(await createUser({ isAdmin: true }));
    const buyer = await createUser({ paid: true });
    const paidAt = new Date(Date.UTC(2026, 5, 7, 14, 30));
    const issue = async () => {
      const providerRef = `cs_test_${randomUUID()}`;
      await db.insert(paymentIssue).values({
        provider: "stripe",
        providerRef,
        reason: "not-the-plan",
        userRef: buyer.id,
        amountCents: 3700,
        currency: "usd",
        createdAt: paidAt,
      });
      return { provider: "stripe", providerRef };
    };
    // $37 is the white-label package's price: the form offers it first.
    expect(likelyProduct(offerDefaults, { amountCents: 3700, currency: "usd" })).toBe(
      "white-label",
    );
    expect(likelyProduct(offerDefaults, { amountCents: 1234, currency: "usd" })).toBe(
      "lifetime-access",
    );

    // The buyer already has Lifetime Access: attaching the payment as the plan is questioned.
    const first = await issue();
    const warned = await attachPayment(db, actor, first, buyer.email, "lifetime-access");
    expect(warned).toMatchObject({ ok: false, alreadyHeld: true });
    expect("error" in warned && warned.error).toMatch(/already holds Lifetime Access/);
    expect(await purchasesOf(buyer.id)).toHaveLength(1);

    // As the package it paid for: that product, that amount, the day it was paid.
    const attached = await attachPayment(db, actor, first, buyer.email, "white-label");
    expect(attached).toEqual({
      ok: true,
      message: `Attached the $37 payment of 2026-06-07 to ${buyer.email} as 12-in-1 White Label Package.`,
    });
    const [recorded] = (await purchasesOf(buyer.id)).filter(
      (p) => p.providerRef === first.providerRef,
    );
    expect(recorded).toMatchObject({
      product: "white-label",
      amountCents: 3700,
      status: "completed",
      createdAt: paidAt,
    });

    // A second payment as the package again: questioned, then recorded when the owner goes on.
    const second = await issue();
    expect(await attachPayment(db, actor, second, buyer.email, "white-label")).toMatchObject({
      ok: false,
      alreadyHeld: true,
    });
    expect(await attachPayment(db, actor, second, buyer.email, "white-label", true)).toMatchObject({
      ok: true,
    });
    expect((await purchasesOf(buyer.id)).filter((p) => p.product === "white-label")).toHaveLength(
      2,
    );
  });
});

describe("CSV cells", () => {
  it("quotes by RFC 4180 and opens formula-like text as text", () => {
    const cells: [Parameters<typeof csvCell>[0], string][] = [
      ['say "hi", ok', '"say ""hi"", ok"'],
      ['=HYPERLINK("x")', '"\'=HYPERLINK(""x"")"'],
      ["+1", "'+1"],
      ["-2", "'-2"],
      ["@sum", "'@sum"],
      ["\tx", "'\tx"],
      [-5, "-5"],
      [null, ""],
      [new Date("2026-11-24T10:00:00Z"), "2026-11-24T10:00:00.000Z"],
    ];
    for (const [value, cell] of cells) expect(csvCell(value)).toBe(cell);
    expect(csvLine(["a", 1, true])).toBe("a,1,true\r\n");
  });
});
