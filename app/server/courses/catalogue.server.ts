// Every course and chapter as members read them, kept in memory under the
// `shared` page version (decision 030): the triggers that tell the page cache
// a course changed (drizzle/0006_page_version.sql) tell this copy too, so a
// member page reads only what is the member's own.
import { sql } from "drizzle-orm";
import { funnelProductKeys } from "~/config/site";
import type { EditedCourse } from "~/lib/course-authoring";
import { type Db, rowsOf } from "../db/client.server";

export type CatalogueChapter = {
  id: string;
  title: string;
  contentHtml: string;
  published: boolean;
};

/** A course as its edit form shows it, with its chapters. */
export type CatalogueCourse = EditedCourse & {
  /** In the admin's order, drafts included. */
  chapters: CatalogueChapter[];
  /** Published chapters only, in order: what a member sees. */
  publishedChapters: CatalogueChapter[];
  /** The products that open it (product_course), in the funnel's order. */
  products: string[];
};

export type Catalogue = {
  /** The `shared` page version it was read at. */
  version: number;
  /** Every course, drafts included, in the order members see them. */
  courses: CatalogueCourse[];
  byId: Map<string, CatalogueCourse>;
};

/** The `shared` version as SQL: a member-state query reads it in the same statement. */
export const sharedVersionSql = sql`coalesce((select version from page_version where key = 'shared'), 0)`;

type Kept = { catalogue?: Catalogue; loading?: { version: number; promise: Promise<Catalogue> } };
const kept = new WeakMap<Db, Kept>();

/**
 * The catalogue at `version` (read in the caller's statement) or newer: the
 * kept one when it is that recent, else read once (two queries, however many
 * requests ask at the same time) and kept.
 */
export function catalogueAt(db: Db, version: number): Promise<Catalogue> {
  let entry = kept.get(db);
  if (!entry) {
    entry = {};
    kept.set(db, entry);
  }
  const current = entry.catalogue;
  if (current && current.version >= version) return Promise.resolve(current);
  if (entry.loading && entry.loading.version >= version) return entry.loading.promise;
  const own = entry;
  const promise = readCatalogue(db).then(
    (catalogue) => {
      if (!own.catalogue || own.catalogue.version <= catalogue.version) own.catalogue = catalogue;
      if (own.loading?.promise === promise) own.loading = undefined;
      return catalogue;
    },
    (error: unknown) => {
      if (own.loading?.promise === promise) own.loading = undefined;
      throw error;
    },
  );
  own.loading = { version, promise };
  return promise;
}

/** Reads every course and chapter, and the version they were read at, in one statement. */
async function readCatalogue(db: Db): Promise<Catalogue> {
  const [row] = await rowsOf<{
    version: string | number;
    courses: unknown;
    chapters: unknown;
    products: unknown;
  }>(
    db,
    sql`select ${sharedVersionSql} as version,
      coalesce((select json_agg(json_build_array(id, title, description, published,
          cover_image_url, cover_alt) order by sort_order, created_at, id) from course), '[]') as courses,
      coalesce((select json_agg(json_build_array(course_id, id, title, content_html, published)
          order by course_id, sort_order) from chapter), '[]') as chapters,
      coalesce((select json_agg(json_build_array(course_id, product)) from product_course), '[]') as products`,
  );
  const courses: CatalogueCourse[] = [];
  const byId = new Map<string, CatalogueCourse>();
  for (const [id, title, description, published, coverImageUrl, coverAlt] of jsonList<unknown[]>(
    row?.courses,
  )) {
    const c: CatalogueCourse = {
      id: String(id),
      title: String(title),
      description: String(description),
      published: Boolean(published),
      coverImageUrl: coverImageUrl == null ? null : String(coverImageUrl),
      coverAlt: String(coverAlt),
      chapters: [],
      publishedChapters: [],
      products: [],
    };
    courses.push(c);
    byId.set(c.id, c);
  }
  for (const [courseId, id, title, contentHtml, published] of jsonList<unknown[]>(row?.chapters)) {
    const c = byId.get(String(courseId));
    if (!c) continue;
    const chapter: CatalogueChapter = {
      id: String(id),
      title: String(title),
      contentHtml: String(contentHtml),
      published: Boolean(published),
    };
    c.chapters.push(chapter);
    if (chapter.published) c.publishedChapters.push(chapter);
  }
  for (const [courseId, product] of jsonList<[string, string]>(row?.products)) {
    byId.get(String(courseId))?.products.push(String(product));
  }
  for (const c of courses) c.products.sort((a, b) => funnelOrder(a) - funnelOrder(b));
  return { version: Number(row?.version ?? 0), courses, byId };
}

/** A product's place in the funnel (docs/product.md, Launch and funnel); unknown keys last. */
function funnelOrder(product: string): number {
  const at = (funnelProductKeys as readonly string[]).indexOf(product);
  return at === -1 ? funnelProductKeys.length : at;
}

/** A json array column as both drivers return it: parsed already, or as text. */
export function jsonList<T = unknown>(value: unknown): T[] {
  const v = typeof value === "string" ? JSON.parse(value) : value;
  return Array.isArray(v) ? (v as T[]) : [];
}
