// Custom SaaS builds (docs/product.md, Custom SaaS build): the buyer's intake
// form, one per purchase, and the owner's view of every build with its status
// and private notes.
import { and, desc, eq, sql } from "drizzle-orm";
import type { ApplicationStatus } from "~/lib/application-status";
import type { IntakeForm } from "~/lib/coaching-forms";
import { counts } from "../access.server";
import { type Actor, recordAudit } from "../audit-log.server";
import { type Db, rowsOf } from "../db/client.server";
import { coachingApplication, purchase, user } from "../db/schema";

/** The product whose purchase is a Custom SaaS build. */
export const buildProduct = "custom-saas";

export type Intake = {
  visionName: string;
  availability: string;
  techEnvironment: string;
  hosting: string;
  contentPlan: string;
  status: ApplicationStatus;
  submittedAt: Date;
};

/** A buyer's build: its order and, once sent, the intake form. */
export type BuildOrder = {
  purchaseId: string;
  orderNumber: string;
  boughtAt: Date;
  intake: Intake | null;
};

/** The builds `userId` bought that count (completed, address proved), newest first: one query. */
export async function buildOrdersOf(db: Db, userId: string): Promise<BuildOrder[]> {
  const rows = await db
    .select({
      purchaseId: purchase.id,
      orderNumber: purchase.orderNumber,
      boughtAt: purchase.createdAt,
      visionName: coachingApplication.visionName,
      availability: coachingApplication.availability,
      techEnvironment: coachingApplication.techEnvironment,
      hosting: coachingApplication.hosting,
      contentPlan: coachingApplication.contentPlan,
      status: coachingApplication.status,
      submittedAt: coachingApplication.submittedAt,
    })
    .from(purchase)
    .leftJoin(coachingApplication, eq(coachingApplication.purchaseId, purchase.id))
    .where(and(eq(purchase.product, buildProduct), counts(sql`${userId}`)))
    .orderBy(desc(purchase.createdAt));
  return rows.map(({ purchaseId, orderNumber, boughtAt, ...a }) => ({
    purchaseId,
    orderNumber,
    boughtAt,
    intake:
      a.status === null || a.submittedAt === null
        ? null
        : {
            visionName: a.visionName ?? "",
            availability: a.availability ?? "",
            techEnvironment: a.techEnvironment ?? "",
            hosting: a.hosting ?? "",
            contentPlan: a.contentPlan ?? "",
            status: a.status,
            submittedAt: a.submittedAt,
          },
  }));
}

/**
 * Stores the intake form of the buyer's build `input.purchaseId` (sent again:
 * replaced, keeping its status and the owner's notes). False when that
 * purchase is not a build of theirs that counts: nothing is stored.
 */
export async function submitIntake(
  db: Db,
  userId: string,
  input: IntakeForm,
  vision: { file: string; name: string },
): Promise<boolean> {
  const fields = {
    visionFile: vision.file,
    visionName: vision.name,
    availability: input.availability,
    techEnvironment: input.techEnvironment,
    hosting: input.hosting,
    contentPlan: input.contentPlan,
  };
  const rows = await rowsOf<{ purchase_id: string }>(
    db,
    sql`insert into ${coachingApplication} (purchase_id, user_id, vision_file, vision_name,
        availability, tech_environment, hosting, content_plan)
      select ${purchase.id}, ${purchase.userId}, ${fields.visionFile}, ${fields.visionName},
        ${fields.availability}, ${fields.techEnvironment}, ${fields.hosting}, ${fields.contentPlan}
      from ${purchase}
      where ${purchase.id} = ${input.purchaseId} and ${purchase.product} = ${buildProduct}
        and ${counts(sql`${userId}`)}
      on conflict (purchase_id) do update set vision_file = excluded.vision_file,
        vision_name = excluded.vision_name, availability = excluded.availability,
        tech_environment = excluded.tech_environment, hosting = excluded.hosting,
        content_plan = excluded.content_plan, submitted_at = now(), updated_at = now()
      returning purchase_id`,
  );
  return rows.length > 0;
}

/** The vision document of a build, for its buyer or an admin; undefined for anyone else. */
export async function visionDocumentFor(
  db: Db,
  viewer: { id: string; isAdmin: boolean },
  purchaseId: string,
): Promise<{ file: string; name: string } | undefined> {
  const [row] = await db
    .select({ file: coachingApplication.visionFile, name: coachingApplication.visionName })
    .from(coachingApplication)
    .where(
      and(
        eq(coachingApplication.purchaseId, purchaseId),
        viewer.isAdmin ? sql`true` : eq(coachingApplication.userId, viewer.id),
      ),
    );
  return row;
}

export type BuildRow = {
  purchaseId: string;
  orderNumber: string;
  boughtAt: Date;
  refunded: boolean;
  buyer: { id: string; name: string; email: string };
  /** Null until the buyer sends the intake form. */
  intake: (Intake & { notes: string }) | null;
};

/** Every build sold, newest first, with its buyer and intake form: one query. */
export async function listBuilds(db: Db): Promise<BuildRow[]> {
  const rows = await db
    .select({
      purchaseId: purchase.id,
      orderNumber: purchase.orderNumber,
      boughtAt: purchase.createdAt,
      purchaseStatus: purchase.status,
      buyerId: user.id,
      buyerName: user.name,
      buyerEmail: user.email,
      application: coachingApplication,
    })
    .from(purchase)
    .innerJoin(user, eq(user.id, purchase.userId))
    .leftJoin(coachingApplication, eq(coachingApplication.purchaseId, purchase.id))
    .where(eq(purchase.product, buildProduct))
    .orderBy(desc(purchase.createdAt))
    .limit(500);
  return rows.map((r) => ({
    purchaseId: r.purchaseId,
    orderNumber: r.orderNumber,
    boughtAt: r.boughtAt,
    refunded: r.purchaseStatus === "refunded",
    buyer: { id: r.buyerId, name: r.buyerName, email: r.buyerEmail },
    intake: r.application
      ? {
          visionName: r.application.visionName,
          availability: r.application.availability,
          techEnvironment: r.application.techEnvironment,
          hosting: r.application.hosting,
          contentPlan: r.application.contentPlan,
          status: r.application.status,
          submittedAt: r.application.submittedAt,
          notes: r.application.notes,
        }
      : null,
  }));
}

/** The owner moves a build on and keeps notes; false when it has no intake form. Audited. */
export async function updateBuild(
  db: Db,
  actor: Actor,
  change: { purchaseId: string; status: ApplicationStatus; notes: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(coachingApplication)
      .set({ status: change.status, notes: change.notes, updatedAt: sql`now()` })
      .where(eq(coachingApplication.purchaseId, change.purchaseId))
      .returning({
        orderNumber: sql<string>`(select ${purchase.orderNumber} from ${purchase} where ${purchase.id} = ${coachingApplication.purchaseId})`,
      });
    if (!row) return false;
    await recordAudit(tx, actor, {
      kind: "application.update",
      target: row.orderNumber,
      detail: `status ${change.status}`,
    });
    return true;
  });
}
