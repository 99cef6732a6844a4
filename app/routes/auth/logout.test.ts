import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getAuth } from "~/server/auth/better-auth.server";
import { getSessionUser } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import { session } from "~/server/db/schema";
import { appRequest, cookieHeader, createUser, origin, redirectTarget, run } from "~/test/helpers";
import * as logout from "./logout";

function postLogout(cookie?: string) {
  return run(() =>
    logout.action({
      request: appRequest("/logout", { cookie, form: {} }),
      params: {},
      context: {},
    } as never),
  );
}

describe("logout", () => {
  it("ends every session of the user and clears the browser", async () => {
    const u = await createUser();
    const auth = await getAuth();
    const other = await auth.api.signInEmail({
      body: { email: u.email, password: u.password },
      headers: new Headers({ origin }),
      returnHeaders: true,
    });
    const otherCookie = cookieHeader(other.headers);
    expect(await getSessionUser(appRequest("/dashboard", { cookie: otherCookie }))).not.toBeNull();

    const result = (await postLogout(u.cookie)) as Response;
    expect(redirectTarget(result)).toBe("/");
    expect(result.headers.get("clear-site-data")).toBe('"cache", "cookies", "storage"');
    expect(result.headers.getSetCookie().some((c) => /session_token=;.*Max-Age=0/i.test(c))).toBe(
      true,
    );

    const left = await (await getDb()).select().from(session).where(eq(session.userId, u.id));
    expect(left).toHaveLength(0);
    expect(await getSessionUser(appRequest("/dashboard", { cookie: otherCookie }))).toBeNull();
  });

  it("still clears and goes home without a session", async () => {
    const result = (await postLogout()) as Response;
    expect(redirectTarget(result)).toBe("/");
    expect(result.headers.get("clear-site-data")).toBe('"cache", "cookies", "storage"');
  });

  it("sends a GET home without doing anything", async () => {
    expect(redirectTarget(logout.loader())).toBe("/");
  });
});
