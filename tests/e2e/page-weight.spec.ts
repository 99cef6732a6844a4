import { expect } from "@playwright/test";
import { publicPagePaths, signInPagePaths } from "~/route-policies";
import { test } from "./helpers";

// The public pages ship the browser only what they need: no form-validation library
// (their fields' own constraints check in the browser, the actions' schemas on the
// server; docs/decisions/024). Its built code carries this configuration key
// (app/lib/zod.ts), whatever its chunk is called.
const validationLibraryMarker = "jitless";

test("no public or sign-in page loads the validation library", async ({ page }) => {
  test.slow();
  for (const path of [...publicPagePaths, ...signInPagePaths]) {
    const scripts: string[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") scripts.push(response.url());
    });
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    page.removeAllListeners("response");
    expect(scripts.length, path).toBeGreaterThan(0);
    for (const url of scripts) {
      const body = await (await page.request.get(url)).text();
      expect(body.includes(validationLibraryMarker), `${path}: ${url}`).toBe(false);
    }
  }
});
