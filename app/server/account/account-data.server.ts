import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client.server";
import {
  chapter,
  chapterProgress,
  chapterView,
  course,
  courseVisit,
  type PurchaseProvider,
  type PurchaseStatus,
  purchase,
  savedIdea,
  user,
} from "../db/schema";
import { productName } from "../settings/offer-settings.server";

// "Download my data" (/account/data): what the product keeps about a member,
// as one JSON document (docs/product.md, Your account). Only what the member
// gave or did: never a password hash, a session, a two-factor secret or a
// recovery code.

/** The downloaded document. Times are ISO 8601 (UTC) once serialised. */
export type AccountData = {
  exportedAt: Date;
  account: {
    name: string;
    email: string;
    createdAt: Date;
    emailVerified: boolean;
    twoFactorEnabled: boolean;
  };
  purchases: {
    orderNumber: string;
    /** The product's display name (Lifetime Access). */
    product: string;
    amountCents: number;
    currency: string;
    provider: PurchaseProvider;
    status: PurchaseStatus;
    createdAt: Date;
    refundedAt: Date | null;
  }[];
  /** Each chapter marked done. */
  progress: { course: string; chapter: string; completedAt: Date }[];
  /** The chapter last opened in each course (null: a chapter since deleted). */
  courseVisits: { course: string; chapter: string | null; visitedAt: Date }[];
  /** The first time each chapter was opened (the owner's Learning figures count these). */
  chaptersOpened: { course: string; chapter: string; firstOpenedAt: Date }[];
  savedIdeas: { title: string; idea: unknown; createdAt: Date }[];
};

/**
 * The member's data, or null for an unknown user id: one query per table
 * (six in all, run side by side), never one per row. Read only.
 */
export async function accountData(db: Db, userId: string): Promise<AccountData | null> {
  const [accounts, purchases, progress, courseVisits, chaptersOpened, savedIdeas] =
    await Promise.all([
      db
        .select({
          name: user.name,
          email: user.email,
          createdAt: user.createdAt,
          emailVerified: user.emailVerified,
          twoFactorEnabled: user.twoFactorEnabled,
        })
        .from(user)
        .where(eq(user.id, userId)),
      db
        .select({
          orderNumber: purchase.orderNumber,
          product: purchase.product,
          amountCents: purchase.amountCents,
          currency: purchase.currency,
          provider: purchase.provider,
          status: purchase.status,
          createdAt: purchase.createdAt,
          refundedAt: purchase.refundedAt,
        })
        .from(purchase)
        .where(eq(purchase.userId, userId))
        .orderBy(asc(purchase.createdAt), asc(purchase.orderNumber)),
      db
        .select({
          course: course.title,
          chapter: chapter.title,
          completedAt: chapterProgress.completedAt,
        })
        .from(chapterProgress)
        .innerJoin(chapter, eq(chapter.id, chapterProgress.chapterId))
        .innerJoin(course, eq(course.id, chapterProgress.courseId))
        .where(eq(chapterProgress.userId, userId))
        .orderBy(asc(chapterProgress.completedAt), asc(chapter.title)),
      db
        .select({ course: course.title, chapter: chapter.title, visitedAt: courseVisit.visitedAt })
        .from(courseVisit)
        .innerJoin(course, eq(course.id, courseVisit.courseId))
        .leftJoin(chapter, eq(chapter.id, courseVisit.chapterId))
        .where(eq(courseVisit.userId, userId))
        .orderBy(asc(courseVisit.visitedAt), asc(course.title)),
      db
        .select({
          course: course.title,
          chapter: chapter.title,
          firstOpenedAt: chapterView.firstAt,
        })
        .from(chapterView)
        .innerJoin(chapter, eq(chapter.id, chapterView.chapterId))
        .innerJoin(course, eq(course.id, chapterView.courseId))
        .where(eq(chapterView.userId, userId))
        .orderBy(asc(chapterView.firstAt), asc(chapter.title)),
      db
        .select({ title: savedIdea.title, idea: savedIdea.idea, createdAt: savedIdea.createdAt })
        .from(savedIdea)
        .where(eq(savedIdea.userId, userId))
        .orderBy(asc(savedIdea.createdAt), asc(savedIdea.id)),
    ]);
  const [account] = accounts;
  if (!account) return null;
  return {
    exportedAt: new Date(),
    account,
    purchases: purchases.map((p) => ({ ...p, product: productName(p.product) })),
    progress,
    courseVisits,
    chaptersOpened,
    savedIdeas,
  };
}
