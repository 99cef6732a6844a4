// The owner's products page (/admin/products): what each product the funnel
// sells opens. The rule that reads it is in access.server.ts.
import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import {
  type FunnelProductKey,
  funnelProductKeys,
  funnelProducts,
  productOfferPaths,
} from "~/config/site";
import { type Actor, recordAudit } from "../audit-log.server";
import type { Db, Tx } from "../db/client.server";
import { course, productCourse } from "../db/schema";

export type ProductRow = {
  key: FunnelProductKey;
  name: string;
  /** Where a member is offered it (a locked course's card leads there); null: at checkout only. */
  offerPath: string | null;
  /** The courses it opens, by id. */
  courseIds: string[];
};

export type ProductsPage = {
  products: ProductRow[];
  /** Every course, drafts included, in the members' order, to choose from. */
  courses: { id: string; title: string; published: boolean }[];
};

/** Every product in the funnel's order with the courses it opens, and every course (two reads at once). */
export async function readProducts(db: Db): Promise<ProductsPage> {
  const [courses, links] = await Promise.all([
    db
      .select({ id: course.id, title: course.title, published: course.published })
      .from(course)
      .orderBy(course.sortOrder, course.createdAt, course.id),
    db
      .select({ product: productCourse.product, courseId: productCourse.courseId })
      .from(productCourse),
  ]);
  return {
    products: funnelProductKeys.map((key) => ({
      key,
      name: funnelProducts[key].name,
      offerPath: productOfferPaths[key],
      courseIds: links.filter((l) => l.product === key).map((l) => l.courseId),
    })),
    courses,
  };
}

/**
 * Makes `product` open exactly the courses `courseIds` (unknown ids are left
 * out), and writes what changed to the audit log, in one transaction. Returns
 * how many courses it opens now.
 */
export async function setProductCourses(
  db: Db | Tx,
  actor: Actor,
  product: FunnelProductKey,
  courseIds: readonly string[],
): Promise<number> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(productCourse)
      .where(
        and(
          eq(productCourse.product, product),
          courseIds.length > 0 ? notInArray(productCourse.courseId, [...courseIds]) : sql`true`,
        ),
      )
      .returning({ courseId: productCourse.courseId });
    const added =
      courseIds.length === 0
        ? []
        : await tx
            .insert(productCourse)
            .select(
              tx
                .select({ product: sql<string>`${product}`.as("product"), courseId: course.id })
                .from(course)
                .where(inArray(course.id, [...courseIds])),
            )
            .onConflictDoNothing()
            .returning({ courseId: productCourse.courseId });
    if (removed.length > 0 || added.length > 0) {
      await recordAudit(tx, actor, {
        kind: "product.update",
        target: product,
        detail: `${added.length} course(s) added, ${removed.length} removed`,
      });
    }
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(productCourse)
      .where(eq(productCourse.product, product));
    return row?.n ?? 0;
  });
}
