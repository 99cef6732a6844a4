import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { courseWith } from "~/server/courses/fixtures";
import { getDb } from "~/server/db/db.server";
import { auditLog, productCourse } from "~/server/db/schema";
import { appRequest, createUser, redirectTarget, run } from "~/test/helpers";
import * as products from "./products";

function post(form: [string, string][], cookie: string) {
  return run(() =>
    products.action({
      request: appRequest("/admin/products", { cookie, form }),
      params: {},
      context: {},
    } as never),
  );
}

async function opens(courseId: string) {
  const rows = await (await getDb())
    .select({ product: productCourse.product })
    .from(productCourse)
    .where(eq(productCourse.courseId, courseId));
  return rows.map((r) => r.product).sort();
}

describe("/admin/products", () => {
  it("adds a course to what a product opens and takes it away, keeping the rest, and logs it", async () => {
    const owner = await createUser({ isAdmin: true });
    const kit = await courseWith(["One"]);
    expect(await opens(kit.id)).toEqual(["lifetime-access"]);

    const tick = (product: string, ...ids: string[]): [string, string][] => [
      ["product", product],
      ...ids.map((id): [string, string] => ["course", id]),
    ];
    // The VIP Upgrade opens it too: its other courses stay ticked (other test files share
    // the database on PostgreSQL, so Lifetime Access is not changed here).
    const vip = async () =>
      (await products.loader({
        request: appRequest("/admin/products", { cookie: owner.cookie }),
        params: {},
        context: {},
      } as never)) as unknown as { data: { products: { key: string; courseIds: string[] }[] } };
    const vipCourses =
      (await vip()).data.products.find((p) => p.key === "bump-vip")?.courseIds ?? [];
    expect(redirectTarget(await post(tick("bump-vip", ...vipCourses, kit.id), owner.cookie))).toBe(
      "/admin/products",
    );
    expect(await opens(kit.id)).toEqual(["bump-vip", "lifetime-access"]);
    expect((await vip()).data.products.find((p) => p.key === "bump-vip")?.courseIds).toContain(
      kit.id,
    );
    // Taken away again: the other VIP courses stay.
    await post(tick("bump-vip", ...vipCourses), owner.cookie);
    expect(await opens(kit.id)).toEqual(["lifetime-access"]);
    expect((await vip()).data.products.find((p) => p.key === "bump-vip")?.courseIds.sort()).toEqual(
      [...vipCourses].sort(),
    );
    const [entry] = await (await getDb())
      .select({ detail: auditLog.detail })
      .from(auditLog)
      .where(and(eq(auditLog.kind, "product.update"), eq(auditLog.target, "bump-vip")));
    expect(entry?.detail).toMatch(/course\(s\) added/);
  });

  it("refuses an unknown product or course id with a message, and a member altogether", async () => {
    const owner = await createUser({ isAdmin: true });
    const kit = await courseWith(["One"]);
    const unknown = (await post([["product", "everything"]], owner.cookie)) as {
      init: { status: number };
      data: { formError: string };
    };
    expect(unknown.init.status).toBe(400);
    expect(unknown.data.formError).toBe("Choose one of the products.");
    const badId = (await post(
      [
        ["product", "white-label"],
        ["course", "not-a-course"],
      ],
      owner.cookie,
    )) as { init: { status: number }; data: { formError: string } };
    expect(badId.init.status).toBe(400);
    expect(badId.data.formError).toMatch(/not one of the list/);
    const member = await createUser({ paid: true });
    expect(
      redirectTarget(
        await post(
          [
            ["product", "white-label"],
            ["course", kit.id],
          ],
          member.cookie,
        ),
      ),
    ).toBe("/dashboard");
    expect(await opens(kit.id)).toEqual(["lifetime-access"]);
  });
});
