import { readFile } from "node:fs/promises";
import { expect } from "@playwright/test";
import { ideaFields } from "../../app/lib/ideas";
import { createAccount, hydrated, ideaGeneratorWith, test } from "./helpers";

test.describe("member tools", () => {
  test("the app builder opens a new tab carrying the exact prompt", async ({ page, context }) => {
    await context.route("https://bolt.new/**", (route) =>
      route.fulfill({ contentType: "text/html", body: "<title>Builder</title>" }),
    );
    await createAccount(page, { paid: true });
    await page.goto("/app-builder");
    const prompt = page.getByLabel("Your app prompt");
    await hydrated(prompt);

    await page.getByRole("button", { name: /AI email assistant/ }).click();
    await expect(prompt).toHaveValue(/AI email assistant SaaS/);

    const text = `Build "Tasks & Notes" 🚀 for teams\nwith 50% off & more`;
    await prompt.fill(text);
    await expect(page.getByText(`${text.length} / 2,000 characters`)).toBeVisible();
    const opened = context.waitForEvent("page");
    await page.getByRole("button", { name: "Build", exact: true }).click();
    const tab = await opened;
    await tab.waitForLoadState();
    const url = new URL(tab.url());
    expect(url.origin).toBe("https://bolt.new");
    expect(url.searchParams.get("prompt")).toBe(text);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
  });

  test("bonuses download for members and send visitors to /login", async ({ page, browser }) => {
    await createAccount(page, { paid: true });
    await page.goto("/bonuses");
    await expect(page.getByRole("heading", { name: "Premium Bonuses" })).toBeVisible();
    await expect(page.getByText("Value $197")).toBeVisible();
    await expect(page.getByText("Value $347/year")).toBeVisible();

    const downloads = [
      ["Download todoersproject.zip", "todoersproject.zip", 5_000],
      ["Download the launch plan", "30-day-launch-plan.txt", 5_000],
      ["Download the prompt vault", "ai-prompt-engineering-vault.txt", 10_000],
    ] as const;
    for (const [name, file, minSize] of downloads) {
      const pending = page.waitForEvent("download");
      await page.getByRole("link", { name }).click();
      const download = await pending;
      expect(download.suggestedFilename()).toBe(file);
      const bytes = await readFile((await download.path()) as string);
      expect(bytes.length).toBeGreaterThan(minSize);
      if (file.endsWith(".zip")) expect(bytes.subarray(0, 2).toString()).toBe("PK");
    }
    const response = await page.request.get("/bonuses/download/30-day-launch-plan.txt");
    expect(response.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    expect(response.headers()["content-disposition"]).toBe(
      'attachment; filename="30-day-launch-plan.txt"',
    );

    const discord = page.getByRole("button", { name: "Join Discord (Coming Soon)" });
    await hydrated(discord);
    const alerts: string[] = [];
    page.once("dialog", (alert) => {
      alerts.push(alert.message());
      void alert.dismiss();
    });
    await discord.click();
    await expect.poll(() => alerts).toEqual(["Discord invite link coming soon!"]);

    const visitor = await browser.newContext();
    const answer = await visitor.request.get("/bonuses/download/todoersproject.zip", {
      maxRedirects: 0,
    });
    expect(answer.status()).toBe(302);
    expect(answer.headers().location).toMatch(/\/login$/);
    await visitor.close();
  });

  test("unpaid users are sent to /payment-options for a bonus file", async ({ page }) => {
    await createAccount(page, { paid: false });
    const answer = await page.request.get("/bonuses/download/todoersproject.zip", {
      maxRedirects: 0,
    });
    expect(answer.status()).toBe(302);
    expect(answer.headers().location).toMatch(/\/payment-options$/);
  });

  test("ideas: filters, generate, all five shown, details dialog, export", async ({ page }) => {
    await ideaGeneratorWith(page, {
      industry: "healthcare",
      audience: "freelancers",
      problem: "missed appointments",
    });
    await expect(page.getByLabel("Complexity")).toHaveValue("medium");
    await expect(page.getByLabel("Monetization model")).toHaveValue("subscription");
    await page.getByLabel("Complexity").selectOption("high");
    await page.getByRole("checkbox", { name: "React" }).check();
    await page.getByRole("checkbox", { name: "PostgreSQL" }).check();
    await expect(page.getByRole("checkbox")).toHaveCount(24);

    await page.getByRole("button", { name: "Generate Ideas" }).click();
    await expect(page.getByRole("button", { name: "Generating ideas..." })).toBeDisabled();
    await expect(page.getByRole("heading", { name: "Your ideas" })).toBeVisible();
    // All five at once, no paging.
    const cards = page
      .getByRole("region", { name: "Your ideas" })
      .getByRole("heading", { level: 3 });
    await expect(cards).toHaveCount(5);
    const first = await cards.allTextContents();
    for (const title of first) expect(title).toMatch(/^AI /);
    await expect(page.getByText("6-8 months").first()).toBeVisible();

    const title = first[0] as string;
    const opener = page.getByRole("button", { name: `View details: ${title}` });
    await opener.click();
    const dialog = page.getByRole("dialog", { name: title });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
    await expect(dialog).toContainText("freelancers");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    const pending = page.waitForEvent("download");
    await page.getByRole("button", { name: `Export ${title} as JSON` }).click();
    const download = await pending;
    expect(download.suggestedFilename()).toMatch(/^ai-[a-z0-9-]+\.json$/);
    const idea = JSON.parse(await readFile((await download.path()) as string, "utf8"));
    expect(idea.title).toBe(title);
    for (const field of ideaFields) {
      expect(idea[field], field).toBeTruthy();
    }
    expect(idea.techStack).toEqual(["React", "PostgreSQL"]);
    expect(idea.estimatedDevTime).toBe("6-8 months");
  });
});
