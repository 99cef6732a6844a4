import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { offerDefaults } from "~/lib/offer";
import { setProductCourses } from "~/server/admin/products.server";
import { cliActor } from "~/server/audit-log.server";
import { courseWith } from "~/server/courses/fixtures";
import { listCourses } from "~/server/courses/read.server";
import { getDb } from "~/server/db/db.server";
import { auditLog, productCourse } from "~/server/db/schema";
import {
  productName,
  readOfferSettings,
  refreshOfferSettings,
  writeOfferSettings,
} from "~/server/settings/offer-settings.server";
import { createTestApp } from "~/test/app-handler";
import { appRequest, createUser, origin, redirectTarget, run } from "~/test/helpers";
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

afterAll(async () => {
  const db = await getDb();
  await writeOfferSettings(db, cliActor(), offerDefaults);
  await refreshOfferSettings(db);
});

describe("/admin/products", () => {
  it("adds a course to what a product opens and takes it away, keeping the rest, and logs it", async () => {
    const owner = await createUser({ isAdmin: true });
    const kit = await courseWith(["One"]);
    expect(await opens(kit.id)).toEqual(["lifetime-access"]);

    // The VIP Upgrade at its default price: other test files share the settings on PostgreSQL.
    const tick = (product: string, ...ids: string[]): [string, string][] => [
      ["product", product],
      ["name", "VIP Upgrade"],
      ["price", "4.95"],
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
    // This owner's entries: other test files log changes of the VIP Upgrade too on PostgreSQL.
    const entries = await (await getDb())
      .select({ detail: auditLog.detail })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.kind, "product.update"),
          eq(auditLog.target, "bump-vip"),
          eq(auditLog.actorId, owner.id),
        ),
      )
      .orderBy(auditLog.seq);
    expect(entries[0]?.detail).toMatch(/course\(s\) added/);
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
        ["name", "12-in-1 White Label Package"],
        ["price", "37"],
        ["regularPrice", "997"],
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

  it("sets a product's name, price and struck-through price, which the pages, receipts and locked cards show; bad values are refused, nothing lost", async () => {
    const owner = await createUser({ isAdmin: true });
    const db = await getDb();
    const kit = await courseWith(["One"]);
    // The package's own courses stay ticked (other test files share them on PostgreSQL).
    const kept = (
      await db
        .select({ courseId: productCourse.courseId })
        .from(productCourse)
        .where(eq(productCourse.product, "white-label"))
    ).map((r) => r.courseId);
    const form = (
      name: string,
      price: string,
      regularPrice: string,
      ...ids: string[]
    ): [string, string][] => [
      ["product", "white-label"],
      ["name", name],
      ["price", price],
      ["regularPrice", regularPrice],
      ...[...kept, ...ids].map((id): [string, string] => ["course", id]),
    ];
    const refused = (await post(form(" ", "free", "30", kit.id), owner.cookie)) as unknown as {
      init: { status: number };
      data: {
        fieldErrors: Record<string, string>;
        formError: string;
        values: Record<string, string>;
        ticked: string[];
      };
    };
    expect(refused.init.status).toBe(400);
    expect(refused.data.fieldErrors).toEqual({
      name: "Please enter the product's name",
      price: "Enter the price in dollars, for example 17 or 4.95",
    });
    expect(refused.data.formError).toMatch(/^2 fields need attention/);
    expect(refused.data.values).toMatchObject({ product: "white-label", price: "free" });
    expect(refused.data.ticked).toEqual([...kept, kit.id]);
    const below = (await post(form("White Label Kit", "47", "40", kit.id), owner.cookie)) as {
      data: { fieldErrors: Record<string, string> };
    };
    expect(below.data.fieldErrors).toEqual({
      regularPrice: "The struck-through price must be above the price",
    });
    expect((await readOfferSettings(db)).settings).toMatchObject({
      whiteLabelName: "12-in-1 White Label Package",
      whiteLabelPriceCents: 3700,
    });

    const saved = await post(form(" White Label Kit ", "47.50", "$1297", kit.id), owner.cookie);
    expect(redirectTarget(saved)).toBe("/admin/products");
    const { settings } = await readOfferSettings(db);
    expect(settings).toMatchObject({
      whiteLabelName: "White Label Kit",
      whiteLabelPriceCents: 4750,
      whiteLabelRegularPriceCents: 129700,
    });
    expect(await opens(kit.id)).toEqual(["lifetime-access", "white-label"]);
    const [entry] = await db
      .select({ detail: auditLog.detail })
      .from(auditLog)
      .where(and(eq(auditLog.kind, "settings.update"), eq(auditLog.actorId, owner.id)));
    expect(entry?.detail).toBe(
      'whiteLabelName: "12-in-1 White Label Package" → "White Label Kit"; whiteLabelPriceCents: 3700 → 4750; whiteLabelRegularPriceCents: 99700 → 129700',
    );
    // Every page that sells it shows the new price: the upsell, the upgrades page, the affiliates' funnel.
    const { app } = await createTestApp();
    const page = async (path: string) =>
      (await app.fetch(new Request(new URL(path, origin)))).text();
    const upsell = await page("/white-label-upsell");
    expect(upsell).toContain("Yes, Upgrade My Order for $47.50");
    expect(upsell).toContain("$1,297");
    expect(await page("/upgrades")).toContain("$47.50");
    const affiliates = await page("/jv-affiliate");
    expect(affiliates).toContain("$47.50");
    expect(affiliates).toContain("White Label Kit");
    // Its new name is what receipts and the console call it, and what a member who does
    // not hold it reads on the locked card of a course only it opens.
    expect(productName("white-label")).toBe("White Label Kit");
    const member = await createUser({ paid: true });
    await setProductCourses(db, cliActor(), "white-label", [...kept, kit.id]);
    await db
      .delete(productCourse)
      .where(and(eq(productCourse.courseId, kit.id), eq(productCourse.product, "lifetime-access")));
    const card = (await listCourses(db, member.id)).find((c) => c.id === kit.id);
    expect(card?.locked).toEqual({
      unlock: { product: "white-label", name: "White Label Kit", href: "/white-label-upsell" },
    });
    // The package opens what it opened before, by its old name.
    await post(form("12-in-1 White Label Package", "37", "997"), owner.cookie);
    expect(await opens(kit.id)).toEqual([]);
    expect(productName("white-label")).toBe("12-in-1 White Label Package");
  });
});
