import { expect, type Page, test } from "@playwright/test";
import { publicPagePaths } from "../../app/route-policies";
import { expectNoAxeViolations } from "./axe";

/** Every public page passes axe-core (WCAG 2 A and AA) and works by keyboard. */

const banner = (page: Page) => page.getByRole("region", { name: "We use cookies" });

test.describe("axe-core, WCAG 2 A and AA", () => {
  for (const path of [...publicPagePaths, "/login", "/signup"]) {
    test(`${path} has no violations (cookie banner shown)`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      // The banner appears once the page is hydrated: check the page with it.
      await expect(banner(page)).toBeVisible();
      await expectNoAxeViolations(page);
    });
  }
});

/** Notes every control's unfocused outline and shadow, so a focus style can be told apart from a resting one. */
async function recordRestingStyles(page: Page) {
  await page.evaluate(() => {
    for (const el of document.querySelectorAll<HTMLElement>("a, button, input, select, textarea")) {
      const style = getComputedStyle(el);
      el.dataset.restOutline = `${style.outlineStyle} ${style.outlineWidth}`;
      el.dataset.restShadow = style.boxShadow;
    }
  });
}

/** What the focused element is, and whether focus changed its look (an outline or a ring). */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const outline =
      style.outlineStyle !== "none" &&
      Number.parseFloat(style.outlineWidth) > 0 &&
      `${style.outlineStyle} ${style.outlineWidth}` !== el.dataset.restOutline;
    const ring = style.boxShadow !== "none" && style.boxShadow !== el.dataset.restShadow;
    return {
      name: (el.getAttribute("aria-label") ?? el.textContent ?? "").trim(),
      inBanner: Boolean(
        el.closest("section[aria-labelledby]")?.textContent?.includes("We use cookies"),
      ),
      visible: outline || ring,
    };
  });
}

test("keyboard on /: Tab reaches the calls to action and the cookie banner's buttons, with a visible focus", async ({
  page,
}) => {
  await page.goto("/");
  await expect(banner(page)).toBeVisible();
  await recordRestingStyles(page);

  const wanted = {
    banner: ["Decline", "Essential Only", "Accept All"],
    main: ["Start Learning", "Get Lifetime Access", "Get Started Today"],
  };
  const reached = new Map<string, boolean>();
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press("Tab");
    const f = await focused(page);
    if (!f) continue;
    const key = `${f.inBanner ? "banner" : "main"}:${f.name}`;
    if (!reached.has(key)) reached.set(key, f.visible);
    if (wanted.main.every((n) => reached.has(`main:${n}`))) break;
  }
  for (const n of wanted.banner) {
    expect(reached.get(`banner:${n}`), `banner button ${n} reached with a visible focus`).toBe(
      true,
    );
  }
  for (const n of wanted.main) {
    expect(reached.get(`main:${n}`), `call to action ${n} reached with a visible focus`).toBe(true);
  }

  // The banner works from the keyboard too: Enter on Accept All closes it.
  await page.getByRole("button", { name: "Accept All" }).focus();
  await page.keyboard.press("Enter");
  await expect(banner(page)).toBeHidden();
});
