// The owner's products page (/admin/products): what each product the funnel
// sells opens, courses and files. The rule that reads it is in access.server.ts.
import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import { type FunnelProductKey, funnelProductKeys, productOfferPaths } from "~/config/site";
import { counts } from "../access.server";
import { type Actor, recordAudit } from "../audit-log.server";
import { type Db, rowsOf, type Tx } from "../db/client.server";
import { course, productCourse, productFile, purchase } from "../db/schema";

export type ProductRow = {
  key: FunnelProductKey;
  /** Where a member is offered it (a locked course's card leads there); null: at checkout only. */
  offerPath: string | null;
  /** The courses it opens, by id. */
  courseIds: string[];
  /** The files it opens, in the order they were added. */
  files: ProductFileRow[];
};

/** A file a product opens, as the owner and its holders see it. */
export type ProductFileRow = { id: string; name: string; sizeBytes: number };

export type ProductsPage = {
  products: ProductRow[];
  /** Every course, drafts included, in the members' order, to choose from. */
  courses: { id: string; title: string; published: boolean }[];
};

/** Every product in the funnel's order with the courses and files it opens, and every course (three reads at once). */
export async function readProducts(db: Db): Promise<ProductsPage> {
  const [courses, links, files] = await Promise.all([
    db
      .select({ id: course.id, title: course.title, published: course.published })
      .from(course)
      .orderBy(course.sortOrder, course.createdAt, course.id),
    db
      .select({ product: productCourse.product, courseId: productCourse.courseId })
      .from(productCourse),
    db
      .select({
        product: productFile.product,
        id: productFile.id,
        name: productFile.name,
        sizeBytes: productFile.sizeBytes,
      })
      .from(productFile)
      .orderBy(productFile.createdAt, productFile.id),
  ]);
  return {
    products: funnelProductKeys.map((key) => ({
      key,
      offerPath: productOfferPaths[key],
      courseIds: links.filter((l) => l.product === key).map((l) => l.courseId),
      files: files.filter((f) => f.product === key).map(({ product: _, ...file }) => file),
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

/** A file stored for a product: the name it had, where the uploads store keeps it, its type and size. */
export type StoredProductFile = {
  name: string;
  storedName: string;
  contentType: string;
  sizeBytes: number;
};

/** Makes `product` open the stored file `file`, and writes it to the audit log; its row's id. */
export async function addProductFile(
  db: Db,
  actor: Actor,
  product: FunnelProductKey,
  file: StoredProductFile,
): Promise<string> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(productFile)
      .values({ product, ...file })
      .returning({ id: productFile.id });
    await recordAudit(tx, actor, {
      kind: "product.update",
      target: product,
      detail: `File added: ${file.name}`,
    });
    return row?.id ?? "";
  });
}

/**
 * Stops `product` opening the file `id` and writes it to the audit log. Returns
 * what was removed (its stored name, for the uploads store), or undefined when
 * the product has no such file.
 */
export async function removeProductFileRow(
  db: Db,
  actor: Actor,
  product: FunnelProductKey,
  id: string,
): Promise<{ name: string; storedName: string } | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(productFile)
      .where(and(eq(productFile.id, id), eq(productFile.product, product)))
      .returning({ name: productFile.name, storedName: productFile.storedName });
    if (row) {
      await recordAudit(tx, actor, {
        kind: "product.update",
        target: product,
        detail: `File removed: ${row.name}`,
      });
    }
    return row;
  });
}

/**
 * The file `id` and whether `user` may open it (they hold a purchase that
 * counts of its product, or are an admin: the access rule, in one query), or
 * undefined when there is no such file.
 */
export async function productFileFor(
  db: Db,
  user: { id: string; isAdmin: boolean },
  id: string,
): Promise<(StoredProductFile & { product: FunnelProductKey; opens: boolean }) | undefined> {
  const [row] = await rowsOf<{
    product: FunnelProductKey;
    name: string;
    stored_name: string;
    content_type: string;
    size_bytes: number;
    opens: boolean;
  }>(
    db,
    sql`select f.product, f.name, f.stored_name, f.content_type, f.size_bytes,
      ${user.isAdmin ? sql`true` : sql`exists (select 1 from ${purchase} where ${counts(sql`${user.id}`)} and ${purchase}.product = f.product)`} as opens
      from ${productFile} f where f.id = ${id} limit 1`,
  );
  return (
    row && {
      product: row.product,
      name: row.name,
      storedName: row.stored_name,
      contentType: row.content_type,
      sizeBytes: Number(row.size_bytes),
      opens: row.opens === true,
    }
  );
}

/** The files `user` may open, by product in the funnel's order (admins: every file). One query. */
export async function productFilesOpenTo(
  db: Db,
  user: { id: string; isAdmin: boolean },
): Promise<{ product: FunnelProductKey; files: ProductFileRow[] }[]> {
  const rows = await rowsOf<{ product: string; id: string; name: string; size_bytes: number }>(
    db,
    sql`select f.product, f.id, f.name, f.size_bytes from ${productFile} f
      where ${user.isAdmin ? sql`true` : sql`f.product in (select ${purchase.product} from ${purchase} where ${counts(sql`${user.id}`)})`}
      order by f.created_at, f.id`,
  );
  return funnelProductKeys
    .map((product) => ({
      product,
      files: rows
        .filter((r) => r.product === product)
        .map((r) => ({ id: r.id, name: r.name, sizeBytes: Number(r.size_bytes) })),
    }))
    .filter((group) => group.files.length > 0);
}
