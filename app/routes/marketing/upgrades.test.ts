import { describe, expect, it } from "vitest";
import { createTestApp } from "~/test/app-handler";
import { appRequest, createUser } from "~/test/helpers";

const { app } = await createTestApp();

/** A page's text as a reader sees it (tags and React's text markers left out). */
async function textOf(path: string, cookie?: string): Promise<string> {
  const response = await app.fetch(appRequest(path, { cookie }));
  expect(response.status).toBe(200);
  const html = await response.text();
  const body = html.slice(html.indexOf("<body"));
  return body
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

describe("/upgrades", () => {
  // A visitor gets the copy prerendered at build, which is this page rendered without a session.
  it("tells only a member that they have the course", async () => {
    const neutral = "Two upgrades that get you to revenue faster";
    const visitor = await textOf("/upgrades");
    expect(visitor).not.toContain("You have the course");
    expect(visitor).toContain(neutral);
    const unpaid = await textOf("/upgrades", (await createUser()).cookie);
    expect(unpaid).not.toContain("You have the course");
    expect(unpaid).toContain(neutral);
    const member = await textOf("/upgrades", (await createUser({ paid: true })).cookie);
    expect(member).toContain("You have the course. These two upgrades get you to revenue faster");
  });
});
