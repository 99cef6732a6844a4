import { mkdirSync } from "node:fs";
import { expect, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { createAccount, hydrated, test, uniqueTitle } from "./helpers";

// Each product the funnel sells opens its own courses: a member with Lifetime
// Access sees the add-ons' courses as locked cards that lead to their offers,
// and the owner sets what each product opens at /admin/products; at a desktop
// and a phone width.

const shots = "/tmp/shots-products";
const whiteLabelCourse = "12-in-1 White Label Package";
const vipCourse = "VIP Launch Kit";
/** The demo's white-label course (drizzle/0017_products.sql). */
const whiteLabelCourseId = "6f1c2a3e-0d1b-4c8e-9a57-3b1f0e2d4c12";

async function shot(page: Page, name: string, width: number) {
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
}

async function noOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The dashboard card whose heading is `title`. */
const cardOf = (page: Page, title: string) =>
  page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { level: 2, name: title, exact: true }) });

for (const width of [1280, 390]) {
  test.describe(`products at ${width} px`, () => {
    test.describe.configure({ timeout: 60_000 });

    test.beforeEach(async ({ page, baseURL }) => {
      await page.setViewportSize({ width, height: 900 });
      await page
        .context()
        .addCookies([{ name: "cookie_consent", value: "essential", url: baseURL as string }]);
    });

    test("a plan member sees the add-ons' courses locked; Unlock leads to the offer, and so does the course's address", async ({
      page,
    }) => {
      await createAccount(page, { paid: true });
      await page.goto("/dashboard");
      const locked = cardOf(page, whiteLabelCourse);
      await expect(locked).toContainText("Locked");
      await expect(locked).toContainText("Included in the 12-in-1 White Label Package.");
      // Not a way into the course: no link to it, no progress.
      await expect(locked.getByRole("link", { name: whiteLabelCourse })).toHaveCount(0);
      await expect(locked.getByRole("progressbar")).toHaveCount(0);
      await expect(cardOf(page, vipCourse)).toContainText(
        "Comes with the VIP Upgrade, offered at checkout with Lifetime Access.",
      );
      await expectNoAxeViolations(page);
      await noOverflow(page);
      await shot(page, "dashboard", width);

      const unlock = locked.getByRole("link", { name: "Unlock" });
      await hydrated(unlock);
      await unlock.click();
      await expect(page).toHaveURL(/\/white-label-upsell$/);

      // The course's own address leads to the same offer.
      await page.goto(`/course/${whiteLabelCourseId}`);
      await expect(page).toHaveURL(/\/white-label-upsell$/);
    });

    test("the owner opens a course with a product, and a plan member then finds it locked", async ({
      adminPage,
      page,
    }) => {
      const admin = adminPage;
      await admin.setViewportSize({ width, height: 900 });
      const title = uniqueTitle("Rebrand kit");
      await admin.goto("/admin");
      const created = await admin.request.post("/admin", {
        form: { intent: "create-course", title, description: "Brand assets" },
        headers: { Origin: new URL(admin.url()).origin },
        maxRedirects: 0,
      });
      expect(created.status()).toBe(302);
      const courseId = (created.headers().location ?? "").split("course=")[1] ?? "";

      await admin.goto("/admin/products");
      await expect(admin.getByRole("heading", { level: 1, name: "Products" })).toBeVisible();
      const whiteLabel = admin.getByRole("region", { name: "12-in-1 White Label Package" });
      const plan = admin.getByRole("region", { name: "Lifetime Access" });
      // A new course comes with Lifetime Access.
      await expect(plan.getByRole("checkbox", { name: title })).toBeChecked();
      await expect(whiteLabel.getByRole("checkbox", { name: whiteLabelCourse })).toBeChecked();
      await expectNoAxeViolations(admin);
      await noOverflow(admin);

      await hydrated(whiteLabel.getByRole("button", { name: "Save" }));
      await whiteLabel.getByRole("checkbox", { name: title }).check();
      await whiteLabel.getByRole("button", { name: "Save" }).click();
      await expect(admin.getByRole("status").filter({ hasText: "Saved" })).toContainText(
        // The server's database is shared by the tests: other runs may have added theirs.
        /Saved: 12-in-1 White Label Package now opens \d+ courses\./,
      );
      await plan.getByRole("checkbox", { name: title }).uncheck();
      await plan.getByRole("button", { name: "Save" }).click();
      await expect(admin.getByRole("status").filter({ hasText: "Saved" })).toContainText(
        "Saved: Lifetime Access now opens",
      );
      await expect(plan.getByRole("checkbox", { name: title })).not.toBeChecked();
      await expect(whiteLabel.getByRole("checkbox", { name: title })).toBeChecked();
      await shot(admin, "admin-products", width);

      await createAccount(page, { paid: true });
      await page.goto("/dashboard");
      await expect(cardOf(page, title)).toContainText("Locked");
      await page.goto(`/course/${courseId}`);
      await expect(page).toHaveURL(/\/white-label-upsell$/);

      // The owner opens every course, locked to members or not.
      await admin.goto(`/course/${courseId}`);
      await expect(admin.getByRole("heading", { level: 1, name: title })).toBeVisible();
    });
  });
}
