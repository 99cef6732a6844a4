import { describe, expect, it } from "vitest";
import { createTestApp } from "~/test/app-handler";
import { appRequest } from "~/test/helpers";

const { app } = await createTestApp();

describe("/white-label-upsell", () => {
  it("opens with one message: the order is done, login details come by e-mail, then the offer", async () => {
    // Rendered without a session, as the copy prerendered for visitors is.
    const response = await app.fetch(appRequest("/white-label-upsell"));
    expect(response.status).toBe(200);
    const html = await response.text();
    const banner = html.match(/<p class="bg-emerald-700[^"]*">([\s\S]*?)<\/p>/)?.[1];
    expect(banner?.replace(/\s+/g, " ")).toBe(
      "Thank you for your order! Your login details arrive by e-mail in about 5 minutes (check your spam folder). Before you go, one special offer for new members:",
    );
    expect(html).not.toMatch(/order is complete|not finished/i);
  });
});
