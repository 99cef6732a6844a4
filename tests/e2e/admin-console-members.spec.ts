import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, PlaywrightWorkerArgs } from "@playwright/test";
import { expect } from "@playwright/test";
import { type Account, createAccountWith, newAccount, test } from "./helpers";

/** A new account signed in on its own request context (dispose it at the end). */
async function someoneElse(
  playwright: PlaywrightWorkerArgs["playwright"],
  origin: string,
  options: { paid: boolean; account?: Account },
): Promise<{ context: APIRequestContext; account: Account }> {
  const context = await playwright.request.newContext({ baseURL: origin });
  return { context, account: await createAccountWith(context, { ...options, origin }) };
}

test.describe("the owner's console: members", () => {
  test("grant shows on the member's next request, revoke closes it, both in the audit log", async ({
    adminPage: page,
    playwright,
    baseURL,
  }) => {
    const { context: memberContext, account: member } = await someoneElse(
      playwright,
      baseURL ?? "",
      { paid: false },
    );
    const dashboard = () => memberContext.get("/dashboard", { maxRedirects: 0 });
    expect((await dashboard()).headers().location).toBe("/payment-options");

    await page.goto("/admin");
    await page
      .getByRole("navigation", { name: "Admin" })
      .getByRole("link", { name: "Members" })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "Members" })).toBeVisible();
    await expect(page).toHaveTitle("Members | AI Labs");
    await page.getByLabel("Name or e-mail").fill(member.email);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/q=/);
    const row = page.getByRole("row").filter({ hasText: member.email });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole("cell").nth(4)).toHaveText("none");
    await row.getByRole("link", { name: member.name }).click();
    await expect(page.getByRole("heading", { level: 1, name: member.name })).toBeVisible();

    // Every action asks first; Cancel changes nothing.
    await page.getByRole("link", { name: "Grant access" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Give this person Lifetime Access");
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    expect((await dashboard()).status()).toBe(302);

    await page.getByRole("link", { name: "Grant access" }).click();
    await page.getByRole("button", { name: "Yes, grant access" }).click();
    await expect(page.getByText(`Granted Lifetime Access to ${member.email}.`)).toBeVisible();
    await expect(page.getByRole("table", { name: "Purchases" })).toContainText("manual");
    expect((await dashboard()).status()).toBe(200);

    await page.getByRole("link", { name: "Revoke access" }).click();
    await page.getByRole("button", { name: "Yes, revoke access" }).click();
    await expect(page.getByText(`Revoked access for ${member.email}`)).toContainText(
      "Nothing was refunded.",
    );
    // The grant stays on record, its access ended.
    await expect(page.getByRole("table", { name: "Purchases" })).toContainText(
      "completed, access revoked",
    );
    expect((await dashboard()).headers().location).toBe("/payment-options");

    await page.getByRole("link", { name: "Sign out everywhere" }).click();
    await page.getByRole("button", { name: "Yes, sign out everywhere" }).click();
    await expect(page.getByText(`Signed ${member.email} out everywhere`)).toBeVisible();
    expect((await dashboard()).headers().location).toBe("/login");

    await page
      .getByRole("navigation", { name: "Admin" })
      .getByRole("link", { name: "Audit log" })
      .click();
    await expect(page).toHaveTitle("Audit log | AI Labs");
    const log = page.getByRole("table", { name: "Audit log entries" });
    for (const kind of ["member.grant", "member.revoke", "member.sign-out"]) {
      await expect(
        log.getByRole("row").filter({ hasText: kind }).filter({ hasText: member.email }),
      ).toHaveCount(1);
    }
    await page.getByLabel("What").selectOption("member.grant");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/kind=member.grant/);
    await expect(log.getByRole("row").filter({ hasText: "member.revoke" })).toHaveCount(0);
    await memberContext.dispose();
  });

  test("the CSV holds the purchase just made, a formula-like name opening as text", async ({
    adminPage: page,
    playwright,
    baseURL,
  }) => {
    const { context: buyer, account } = await someoneElse(playwright, baseURL ?? "", {
      paid: true,
      account: { ...newAccount(), name: '=HYPERLINK("http://x.test")' },
    });
    await buyer.dispose();
    await page.goto(`/admin/members?q=${encodeURIComponent(account.email)}`);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("members.csv");
    const text = await (
      await page.request.get(`/admin/members.csv?q=${encodeURIComponent(account.email)}`)
    ).text();
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toBe(
      "id,name,email,joined,access,products,paid_with,spend_cents,chapters_done,chapters,progress_percent,two_factor,last_active",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,${account.email},`);
    expect(lines[1]).toMatch(/,member,lifetime-access,test,\d+,0,\d+,0,false,/);
    expect(lines[1]).toContain(`,"'=HYPERLINK(""http://x.test"")",${account.email},`);
  });

  test("a purchase refunded in part, then in full, from the member's page at both widths", async ({
    adminPage: page,
    playwright,
    baseURL,
  }) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const { context, account } = await someoneElse(playwright, baseURL ?? "", { paid: true });
      const dashboard = () => context.get("/dashboard", { maxRedirects: 0 });
      expect((await dashboard()).status()).toBe(200);
      await page.goto(`/admin/members?q=${encodeURIComponent(account.email)}`);
      await page.getByRole("link", { name: account.name }).click();
      const purchases = page.getByRole("table", { name: "Purchases" });
      await purchases.getByRole("link", { name: /^Refund order AIL-/ }).click();
      const dialog = page.getByRole("alertdialog");
      await expect(dialog.getByRole("heading", { name: /^Refund order AIL-/ })).toBeVisible();
      await expect(dialog).toContainText("paid $25 at the test checkout");
      await expect(dialog.getByLabel("Amount to refund")).toHaveValue("25.00");
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `refund form at ${width}`).toBeLessThanOrEqual(0);
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
      expect(results.violations, `refund form at ${width}`).toEqual([]);

      // More than was paid: said in the form, nothing refunded.
      await dialog.getByLabel("Amount to refund").fill("30");
      await dialog.getByRole("button", { name: "Yes, refund" }).click();
      await expect(page.getByText("At most $25 can be refunded.").first()).toBeVisible();
      await expect(dialog.getByLabel("Amount to refund")).toHaveValue("30");

      await dialog.getByLabel("Amount to refund").fill("10");
      await dialog.getByRole("button", { name: "Yes, refund" }).click();
      await expect(page.getByText(/^Refunded \$10 of Lifetime Access/)).toBeVisible();
      await expect(purchases).toContainText("$10, ");
      expect((await dashboard()).status()).toBe(200);

      await purchases.getByRole("link", { name: /^Refund order AIL-/ }).click();
      await expect(dialog).toContainText("$10 refunded so far");
      await expect(dialog.getByLabel("Amount to refund")).toHaveValue("15.00");
      await dialog.getByRole("button", { name: "Yes, refund" }).click();
      await expect(page.getByText(/^Refunded \$15 of Lifetime Access/)).toContainText(
        "refunded in full",
      );
      await expect(purchases).toContainText("$25, ");
      await expect(purchases.getByRole("link", { name: /^Refund order/ })).toHaveCount(0);
      expect((await dashboard()).headers().location).toBe("/payment-options");
      await context.dispose();
    }
  });

  test("the student list sorts, filters, and grants and revokes a product in bulk at both widths", async ({
    adminPage: page,
    playwright,
    baseURL,
  }) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const tag = crypto.randomUUID().slice(0, 8);
      const made: Account[] = [];
      for (const [name, paid] of [
        [`Bea ${tag}`, true],
        [`Al ${tag}`, false],
      ] as const) {
        const { context, account } = await someoneElse(playwright, baseURL ?? "", {
          paid,
          account: { ...newAccount(), name },
        });
        made.push(account);
        await context.dispose();
      }
      const [bea, al] = made as [Account, Account];
      await page.goto(`/admin/members?q=${tag}`);
      await expect(page.getByText("2 accounts match, newest first.")).toBeVisible();
      const table = page.getByRole("table", { name: "Accounts" });
      const names = () => table.getByRole("row").getByRole("link", { name: new RegExp(tag) });
      await expect(names()).toHaveText([al.name, bea.name]);

      // Sorting: a heading's link, its order said to screen readers.
      await table.getByRole("link", { name: /^Name/ }).click();
      await expect(page).toHaveURL(/sort=name&dir=asc/);
      await expect(names()).toHaveText([al.name, bea.name]);
      await expect(table.getByRole("columnheader", { name: /^Name/ })).toHaveAttribute(
        "aria-sort",
        "ascending",
      );
      await table.getByRole("link", { name: /^Spend/ }).click();
      await expect(page.getByText("by spend, highest first")).toBeVisible();
      await expect(names()).toHaveText([bea.name, al.name]);
      await expect(table.getByRole("row").filter({ hasText: bea.email })).toContainText("$25");

      // Filtering keeps the order; the CSV is exactly what is filtered.
      await page.getByLabel("Paid with").selectOption("test");
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page.getByText("1 account match, by spend, highest first.")).toBeVisible();
      const csv = await page.getByRole("link", { name: "Download CSV" }).getAttribute("href");
      const lines = (await (await page.request.get(csv ?? "")).text()).trim().split("\r\n");
      expect(lines.slice(1).map((l) => l.split(",")[2])).toEqual([bea.email]);
      await page.getByRole("link", { name: "Clear filters" }).click();
      await page.goto(`/admin/members?q=${tag}`);

      // Bulk: tick every member on the page, grant VIP, confirm.
      await page.getByLabel("Tick every member on this page").check();
      await expect(page.getByLabel(`Tick ${bea.email}`)).toBeChecked();
      await page.getByLabel("For the ticked members").selectOption({ label: "VIP Upgrade" });
      await page.getByRole("button", { name: "Grant…" }).click();
      const dialog = page.getByRole("alertdialog");
      await expect(dialog.getByRole("heading")).toHaveText("Grant VIP Upgrade to 2 members?");
      await expect(dialog).toContainText(al.email);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `bulk confirmation at ${width}`).toBeLessThanOrEqual(0);
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
      expect(results.violations, `bulk confirmation at ${width}`).toEqual([]);
      await dialog.getByRole("button", { name: "Yes, grant to 2 members" }).click();
      await expect(page.getByText("Granted VIP Upgrade to 2 members.")).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`q=${tag}`));
      await expect(table.getByRole("row").filter({ hasText: al.email })).toContainText(
        "VIP Upgrade",
      );

      // Revoke it from one; nothing ticked is refused with a clear message.
      await page.getByRole("button", { name: "Revoke…" }).click();
      await expect(page.getByRole("alert")).toHaveText("Choose a product");
      await page.getByLabel("For the ticked members").selectOption({ label: "VIP Upgrade" });
      await page.getByRole("button", { name: "Revoke…" }).click();
      await expect(page.getByText("Tick at least one member first")).toBeVisible();
      // What was chosen stays chosen.
      await expect(page.getByLabel("For the ticked members")).toHaveValue("bump-vip");
      await page.getByLabel(`Tick ${al.email}`).check();
      await page.getByRole("button", { name: "Revoke…" }).click();
      await expect(dialog.getByRole("heading")).toHaveText("Revoke VIP Upgrade from 1 member?");
      await dialog.getByRole("button", { name: "Yes, revoke from 1 member" }).click();
      await expect(page.getByText("Revoked VIP Upgrade from 1 member.")).toBeVisible();
      await page.getByLabel("Holds").selectOption({ label: "VIP Upgrade" });
      await page.getByRole("button", { name: "Search" }).click();
      await expect(names()).toHaveText([bea.name]);
    }
  });

  test("members and audit pages are axe clean and fit a phone", async ({ adminPage: page }) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of ["/admin/members", "/admin/audit"]) {
        await page.goto(path);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${path} at ${width}`).toBeLessThanOrEqual(0);
        const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
        expect(results.violations, `${path} at ${width}`).toEqual([]);
      }
    }
  });

  test("visitors and members are sent away from every console page", async ({
    playwright,
    baseURL,
  }) => {
    const { context: member } = await someoneElse(playwright, baseURL ?? "", { paid: true });
    const visitor = await playwright.request.newContext({ baseURL });
    for (const path of [
      "/admin/members",
      "/admin/audit",
      "/admin/members.csv",
      "/admin/members/x",
    ]) {
      for (const who of [member, visitor]) {
        const res = await who.get(path, { maxRedirects: 0 });
        expect(res.status(), path).toBe(302);
        expect(res.headers().location, path).toBe("/dashboard");
      }
    }
    await member.dispose();
    await visitor.dispose();
  });
});
