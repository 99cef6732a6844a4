import { describe, expect, it } from "vitest";
import { createTestApp } from "~/test/app-handler";
import { appRequest, createUser } from "~/test/helpers";

const { app } = await createTestApp();

/** /success as a browser gets it: its HTML, with or without a session. */
async function successPage(cookie?: string): Promise<string> {
  const response = await app.fetch(appRequest("/success", { cookie }));
  expect(response.status).toBe(200);
  // React's markers between adjacent text nodes left out: the text as a reader sees it.
  return (await response.text()).replaceAll("<!-- -->", "");
}

const accessActive = "Your Lifetime Access is active";

describe("/success says what is true for the visitor", () => {
  it("tells a visitor without a session nothing about access, and offers to sign in", async () => {
    const html = await successPage();
    expect(html).not.toContain(accessActive);
    expect(html).not.toContain("Payment successful");
    expect(html).toContain("Payment not confirmed here");
    expect(html).toMatch(/<a[^>]* href="\/login"[^>]*>Sign in<\/a>/);
    expect(html).not.toContain("Taking you to your dashboard");
  });

  it("tells a signed-in user without access the same, with a link to the dashboard", async () => {
    const unpaid = await createUser();
    const html = await successPage(unpaid.cookie);
    expect(html).not.toContain(accessActive);
    expect(html).toContain("Payment not confirmed here");
    expect(html).toMatch(/<a[^>]* href="\/dashboard"[^>]*>Go to dashboard<\/a>/);
  });

  it("tells a member and an admin that access is active, then counts down to the next step", async () => {
    // A new member is led on to the first upsell; an admin (who holds everything) home.
    const member = await successPage((await createUser({ paid: true })).cookie);
    expect(member).toContain("Payment successful");
    expect(member).toContain(accessActive);
    expect(member).toMatch(/Your order continues in <span[^>]*>5 seconds<\/span>\./);
    expect(member).toContain('href="/white-label-upsell"');
    const admin = await successPage((await createUser({ isAdmin: true })).cookie);
    expect(admin).toContain(accessActive);
    expect(admin).toMatch(/Taking you to your dashboard in <span[^>]*>5 seconds<\/span>\./);
  });
});
