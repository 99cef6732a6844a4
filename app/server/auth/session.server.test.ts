import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as dashboard from "~/routes/members/dashboard";
import { appRequest, createUser, redirectTarget, run } from "~/test/helpers";
import { getDb } from "../db/db.server";
import { purchase, session, user } from "../db/schema";
import { getEnv } from "../env.server";
import {
  createSessionTokenReader,
  findSessionMember,
  readSessionToken,
  sessionTokenReader,
} from "./session.server";

const secret = "a-test-secret-that-is-long-enough-000";
const sign = (token: string, key = secret) =>
  encodeURIComponent(`${token}.${createHmac("sha256", key).update(token).digest("base64")}`);

describe("createSessionTokenReader", () => {
  it("answers as readSessionToken does, for the same header every time, within its size", () => {
    const read = createSessionTokenReader(secret, false, 2);
    const good = `better-auth.session_token=${sign("tok123")}`;
    const forged = `better-auth.session_token=${sign("tok123", "other-secret")}`;
    for (let i = 0; i < 3; i++) {
      expect(read(good)).toBe("tok123");
      expect(read(forged)).toBeNull();
    }
    expect(read(`a=1; ${good}`)).toBe("tok123");
    expect(read(null)).toBeNull();
    expect(read(undefined)).toBeNull();
    expect(createSessionTokenReader(secret, true)(good)).toBeNull();
  });
});

describe("sessionTokenReader", () => {
  it("is one reader for the same keys, and reads under the name for the scheme", () => {
    const read = sessionTokenReader({ secret, secure: false });
    expect(sessionTokenReader({ secret, secure: false })).toBe(read);
    const good = `better-auth.session_token=${sign("tok456")}`;
    expect(read(good)).toBe("tok456");
    const secure = sessionTokenReader({ secret, secure: true });
    expect(secure).not.toBe(read);
    expect(secure(good)).toBeNull();
    expect(secure(`__Secure-${good}`)).toBe("tok456");
    expect(
      sessionTokenReader({ secret: `${secret}-other`, secure: true })(`__Secure-${good}`),
    ).toBeNull();
  });
});

describe("readSessionToken", () => {
  it("returns the token of a correctly signed cookie, under the name for the origin's scheme", () => {
    expect(readSessionToken(`a=1; better-auth.session_token=${sign("tok123")}; b=2`, secret)).toBe(
      "tok123",
    );
    expect(
      readSessionToken(`__Secure-better-auth.session_token=${sign("tok123")}`, secret, true),
    ).toBe("tok123");
    // On https only the __Secure- cookie counts, and on http only the plain one.
    expect(
      readSessionToken(`better-auth.session_token=${sign("tok123")}`, secret, true),
    ).toBeNull();
    expect(
      readSessionToken(`__Secure-better-auth.session_token=${sign("tok123")}`, secret),
    ).toBeNull();
  });

  it("refuses a cookie signed with another secret, tampered, unsigned or malformed", () => {
    expect(
      readSessionToken(`better-auth.session_token=${sign("tok123", "other-secret")}`, secret),
    ).toBeNull();
    expect(
      readSessionToken(
        `better-auth.session_token=${sign("tok123").replace("tok123", "tok124")}`,
        secret,
      ),
    ).toBeNull();
    expect(readSessionToken("better-auth.session_token=tok123", secret)).toBeNull();
    expect(readSessionToken("better-auth.session_token=%E0%A4%A", secret)).toBeNull();
    expect(readSessionToken("other_session_token=x", secret)).toBeNull();
    expect(readSessionToken(null, secret)).toBeNull();
  });

  it("reads the cookies Better Auth sets", async () => {
    const u = await createUser();
    const token = readSessionToken(u.cookie, getEnv().authSecret);
    const [row] = await (await getDb()).select().from(session).where(eq(session.userId, u.id));
    expect(token).toBe(row?.token);
  });
});

describe("findSessionMember", () => {
  it("answers the user and membership of a live session", async () => {
    const u = await createUser({ paid: true });
    const token = readSessionToken(u.cookie, getEnv().authSecret) ?? "";
    expect(await findSessionMember(await getDb(), token)).toEqual({
      user: {
        id: u.id,
        name: "Test User",
        email: u.email,
        isAdmin: false,
        twoFactorEnabled: false,
      },
      isMember: true,
      session: { id: expect.any(String), provedAt: expect.any(Date) },
    });
  });

  it("ends an admin's session after 12 hours without a request, and no one else's", async () => {
    const admin = await createUser({ isAdmin: true });
    const member = await createUser({ paid: true });
    const db = await getDb();
    const tokenOf = (cookie: string) => readSessionToken(cookie, getEnv().authSecret) ?? "";
    const [before] = await db.select().from(session).where(eq(session.userId, admin.id));

    // A request moves the admin session's last request and expiry to 12 hours ahead.
    expect(await findSessionMember(db, tokenOf(admin.cookie))).not.toBeNull();
    const [seen] = await db.select().from(session).where(eq(session.userId, admin.id));
    expect(seen?.lastSeenAt).toBeInstanceOf(Date);
    const twelveHours = 12 * 3600_000;
    expect(Math.abs((seen?.expiresAt.getTime() ?? 0) - Date.now() - twelveHours)).toBeLessThan(
      60_000,
    );
    expect(before?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600_000);

    // 11 hours idle: still signed in. 12 hours and a minute: the session is over.
    for (const u of [admin, member]) {
      await db
        .update(session)
        .set({
          lastSeenAt: new Date(Date.now() - 11 * 3600_000),
          updatedAt: new Date(Date.now() - 11 * 3600_000),
        })
        .where(eq(session.userId, u.id));
    }
    expect(await findSessionMember(db, tokenOf(admin.cookie))).not.toBeNull();
    for (const u of [admin, member]) {
      await db
        .update(session)
        .set({
          lastSeenAt: new Date(Date.now() - twelveHours - 60_000),
          updatedAt: new Date(Date.now() - twelveHours - 60_000),
        })
        .where(eq(session.userId, u.id));
    }
    expect(await findSessionMember(db, tokenOf(admin.cookie))).toBeNull();
    const adminPage = await import("~/routes/admin/layout");
    expect(
      redirectTarget(
        await run(() =>
          adminPage.loader({
            request: appRequest("/admin", { cookie: admin.cookie }),
            params: {},
            context: {},
          } as never),
        ),
      ),
    ).toBe("/dashboard");
    // A member's session is not an admin session: it lasts its 30 days, and is never written.
    expect(await findSessionMember(db, tokenOf(member.cookie))).not.toBeNull();
    const [memberRow] = await db.select().from(session).where(eq(session.userId, member.id));
    expect(memberRow?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600_000);
  });

  it("answers null for an expired session", async () => {
    const u = await createUser({ paid: true });
    const db = await getDb();
    await db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.userId, u.id));
    const token = readSessionToken(u.cookie, getEnv().authSecret) ?? "";
    expect(await findSessionMember(db, token)).toBeNull();
  });

  it("takes a refund and an admin grant into account on the very next request", async () => {
    const u = await createUser({ paid: true });
    const db = await getDb();
    const load = () =>
      run(() =>
        dashboard.loader({
          request: appRequest("/dashboard", { cookie: u.cookie }),
          params: {},
          context: {},
        } as never),
      );
    expect(redirectTarget(await load())).toBeNull();
    await db
      .update(purchase)
      .set({ status: "refunded", refundedAt: new Date() })
      .where(eq(purchase.userId, u.id));
    expect(redirectTarget(await load())).toBe("/payment-options");
    await db.update(user).set({ isAdmin: true }).where(eq(user.id, u.id));
    expect(redirectTarget(await load())).toBeNull();
  });
});
