import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { offerDefaults } from "~/lib/offer";
import type { ProofRequired } from "~/lib/proof";
import * as adminRoute from "~/routes/admin/courses";
import * as memberRoute from "~/routes/admin/member";
import * as membersRoute from "~/routes/admin/members";
import * as productsRoute from "~/routes/admin/products";
import * as settingsRoute from "~/routes/admin/settings";
import * as uploads from "~/routes/api/uploads";
import * as loginRoute from "~/routes/auth/login";
import * as signupRoute from "~/routes/auth/signup";
import * as paymentOptions from "~/routes/checkout/payment-options";
import * as appBuilder from "~/routes/members/app-builder";
import * as ideaGenerator from "~/routes/members/app-idea-generator";
import * as bolt from "~/routes/members/bolt-prompt";
import * as bonuses from "~/routes/members/bonuses";
import * as course from "~/routes/members/course";
import * as dashboard from "~/routes/members/dashboard";
import * as notFound from "~/routes/not-found";
import { findMember } from "~/server/admin/members.server";
import { cliActor } from "~/server/audit-log.server";
import { getDb } from "~/server/db/db.server";
import { auditLog, course as courseTable, session, user } from "~/server/db/schema";
import { readOfferSettings, writeOfferSettings } from "~/server/settings/offer-settings.server";
import { appRequest, createUser, origin, redirectTarget, run, withEnv } from "~/test/helpers";
import { totpCode } from "~/test/totp";
import { turnOnTwoFactor } from "~/test/two-factor";
import { totpCodeUsed } from "./two-factor.server";

// biome-ignore lint/suspicious/noExplicitAny: loaders are called with the subset of args they read.
type AnyLoader = (args: any) => unknown;

function load(
  loader: AnyLoader,
  path: string,
  cookie?: string,
  params: Record<string, string> = {},
) {
  return run(
    () =>
      loader({ request: appRequest(path, { cookie }), params, context: {} }) as Promise<unknown>,
  );
}

const memberPages: [string, AnyLoader][] = [
  ["/dashboard", dashboard.loader],
  ["/app-builder", appBuilder.loader],
  ["/app-idea-generator", ideaGenerator.loader],
  ["/bonuses", bonuses.loader],
];

describe("member guard", () => {
  it.each(memberPages)("sends a visitor on %s to /login", async (path, loader) => {
    expect(redirectTarget(await load(loader, path))).toBe("/login");
  });

  it("sends a visitor with a forged session cookie to /login", async () => {
    const forged = "better-auth.session_token=forged.value";
    expect(redirectTarget(await load(dashboard.loader, "/dashboard", forged))).toBe("/login");
  });

  it.each(memberPages)("sends an unpaid user on %s to /payment-options", async (path, loader) => {
    const u = await createUser();
    expect(redirectTarget(await load(loader, path, u.cookie))).toBe("/payment-options");
  });

  it.each(memberPages)("lets a paid user into %s", async (path, loader) => {
    const u = await createUser({ paid: true });
    expect(redirectTarget(await load(loader, path, u.cookie))).toBeNull();
  });

  it("lets an admin without a purchase into the dashboard and lists the demo course", async () => {
    const u = await createUser({ isAdmin: true });
    const result = (await load(dashboard.loader, "/dashboard", u.cookie)) as {
      courses: { title: string }[];
    };
    expect(result.courses.map((c) => c.title)).toContain(
      "Start Here: Your First AI SaaS in 7 Days",
    );
  });

  it("sends a member to /dashboard, saying 'Course not found', for a nonexistent or malformed course id", async () => {
    const u = await createUser({ paid: true });
    for (const courseId of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const result = await load(course.loader, `/course/${courseId}`, u.cookie, { courseId });
      expect(redirectTarget(result)).toBe("/dashboard?notice=course-not-found");
    }
  });
});

describe("admin guard", () => {
  it("sends a visitor to /dashboard", async () => {
    expect(redirectTarget(await load(adminRoute.loader, "/admin/courses"))).toBe("/dashboard");
  });

  it("sends a paid non-admin to /dashboard", async () => {
    const u = await createUser({ paid: true });
    expect(redirectTarget(await load(adminRoute.loader, "/admin/courses", u.cookie))).toBe(
      "/dashboard",
    );
  });

  it("lets an admin in", async () => {
    const u = await createUser({ isAdmin: true });
    expect(redirectTarget(await load(adminRoute.loader, "/admin/courses", u.cookie))).toBeNull();
  });

  it("where two-factor is required, sends an admin without it to /account, for pages and actions alike", async () => {
    const u = await createUser({ isAdmin: true });
    await withEnv({ requireAdminTwoFactor: true }, async () => {
      expect(redirectTarget(await load(adminRoute.loader, "/admin/courses", u.cookie))).toBe(
        "/account",
      );
      const action = await run(() =>
        adminRoute.action({
          request: appRequest("/admin/courses", {
            cookie: u.cookie,
            form: { intent: "create-course", title: "Not allowed yet" },
          }),
          params: {},
          context: {},
        } as never),
      );
      expect(redirectTarget(action)).toBe("/account");
      const courses = await (await getDb())
        .select()
        .from(courseTable)
        .where(eq(courseTable.title, "Not allowed yet"));
      expect(courses).toHaveLength(0);
      const upload = await uploads.action({
        request: new Request(`${origin}/api/uploads`, {
          method: "POST",
          headers: { cookie: u.cookie, origin },
          body: new FormData(),
        }),
        params: {},
        context: {},
      } as never);
      expect((upload as { init: { status: number } }).init.status).toBe(403);

      // With two-factor on, the admin is let in.
      await (await getDb()).update(user).set({ twoFactorEnabled: true }).where(eq(user.id, u.id));
      expect(redirectTarget(await load(adminRoute.loader, "/admin/courses", u.cookie))).toBeNull();
    });
    // Where it is not required (localhost by default), the admin without it is let in.
    const other = await createUser({ isAdmin: true });
    expect(
      redirectTarget(await load(adminRoute.loader, "/admin/courses", other.cookie)),
    ).toBeNull();
  });
});

describe("plan page guard", () => {
  it("sends a visitor to /login", async () => {
    expect(redirectTarget(await load(paymentOptions.loader, "/payment-options"))).toBe("/login");
  });

  it("shows the plan to an unpaid user and tells a paid one they have access", async () => {
    const unpaid = await createUser();
    const paid = await createUser({ paid: true });
    // The plan's name, price and coupon come from the offer settings (their defaults here).
    const plan = {
      offer: "plan",
      name: "Lifetime Access",
      priceCents: 2500,
      regularPriceCents: 19700,
      coupon: { code: "LAUNCH", savingCents: 300, saving: "$3", total: "$22", lastDay: null },
    };
    // The order bump is offered with the plan; not to a member, who is not sold the plan.
    expect(await load(paymentOptions.loader, "/payment-options", unpaid.cookie)).toEqual({
      hasAccess: false,
      bump: { name: "VIP Upgrade", priceCents: 495 },
      ...plan,
    });
    expect(await load(paymentOptions.loader, "/payment-options", paid.cookie)).toEqual({
      hasAccess: true,
      bump: null,
      ...plan,
    });
  });
});

describe("login routing", () => {
  it("shows the login page to a visitor", async () => {
    expect(await load(loginRoute.loader, "/login")).toBeNull();
  });

  it.each([
    ["an admin", { isAdmin: true }, "/dashboard"],
    ["a paid user", { paid: true }, "/dashboard"],
    ["an unpaid user", {}, "/payment-options"],
  ] as const)("sends %s to %s", async (_who, options, target) => {
    const u = await createUser(options);
    expect(redirectTarget(await load(loginRoute.loader, "/login", u.cookie))).toBe(target);
    expect(redirectTarget(await load(signupRoute.loader, "/signup", u.cookie))).toBe(target);
  });
});

describe("other routes", () => {
  it("sends any unknown path home", async () => {
    expect(redirectTarget(await load(notFound.loader, "/no/such/page"))).toBe("/");
  });

  it("sends /bolt-prompt to /app-builder", async () => {
    expect(redirectTarget(await load(bolt.loader, "/bolt-prompt"))).toBe("/app-builder");
  });
});

describe("sensitive admin actions ask for a recent proof", () => {
  afterAll(async () => {
    await writeOfferSettings(await getDb(), cliActor(), offerDefaults);
  });
  type Thrown = { data: ProofRequired; init: { status: number } };
  /** An action's answer, or what it threw (a redirect, or requireRecentProof's 401). */
  async function post(
    action: (args: never) => unknown,
    path: string,
    cookie: string,
    form: Record<string, string>,
    params: Record<string, string> = {},
  ): Promise<unknown> {
    try {
      return await action({
        request: appRequest(path, { cookie, form }),
        params,
        context: {},
      } as never);
    } catch (thrown) {
      return thrown;
    }
  }
  const db = () => getDb();
  /** Makes the admin's last proof (sign-in) `minutes` old. */
  async function provedAgo(userId: string, minutes: number) {
    const at = new Date(Date.now() - minutes * 60_000);
    await (await db())
      .update(session)
      .set({ createdAt: at, provedAt: null })
      .where(eq(session.userId, userId));
  }
  const accessOf = async (userId: string) => (await findMember(await db(), userId))?.access ?? null;

  it("within 15 minutes of signing in, a change goes through at once", async () => {
    const admin = await createUser({ isAdmin: true });
    const target = await createUser();
    await provedAgo(admin.id, 14);
    const path = `/admin/members/${target.id}`;
    const params = { userId: target.id };
    const done = await post(
      memberRoute.action,
      path,
      admin.cookie,
      {
        intent: "grant",
        confirm: "yes",
      },
      params,
    );
    expect(redirectTarget(done)).toBe(path);
    expect(await accessOf(target.id)).toBe("member");
  });

  it("after 15 minutes, asks for the password, keeps the change and makes it once confirmed", async () => {
    const admin = await createUser({ isAdmin: true });
    const target = await createUser();
    await provedAgo(admin.id, 16);
    const path = `/admin/members/${target.id}`;
    const params = { userId: target.id };
    const change = { intent: "grant", confirm: "yes" };

    const asked = (await post(memberRoute.action, path, admin.cookie, change, params)) as Thrown;
    expect(asked.init.status).toBe(401);
    expect(asked.data).toEqual({
      proofRequired: true,
      twoFactor: false,
      error: null,
      fields: [
        ["intent", "grant"],
        ["confirm", "yes"],
      ],
    });
    expect(await accessOf(target.id)).toBe("none");

    const wrong = (await post(
      memberRoute.action,
      path,
      admin.cookie,
      {
        ...change,
        confirmPassword: "not the password",
      },
      params,
    )) as Thrown;
    expect(wrong.init.status).toBe(401);
    expect(wrong.data.error).toBe("Incorrect password");
    // The password typed is never sent back.
    expect(JSON.stringify(wrong.data)).not.toContain("not the password");
    expect(await accessOf(target.id)).toBe("none");

    const confirmed = await post(
      memberRoute.action,
      path,
      admin.cookie,
      {
        ...change,
        confirmPassword: admin.password,
      },
      params,
    );
    expect(redirectTarget(confirmed)).toBe(path);
    expect(await accessOf(target.id)).toBe("member");
    // The proof counts for the next 15 minutes of this session.
    const revoked = await post(
      memberRoute.action,
      path,
      admin.cookie,
      {
        intent: "revoke",
        confirm: "yes",
      },
      params,
    );
    expect(redirectTarget(revoked)).toBe(path);

    const entries = await (await db())
      .select()
      .from(auditLog)
      .where(eq(auditLog.actorId, admin.id));
    expect(entries.map((e) => e.kind)).toEqual(
      expect.arrayContaining(["security.confirm-failed", "security.confirm", "member.grant"]),
    );
    expect(JSON.stringify(entries)).not.toContain(admin.password);
    expect(JSON.stringify(entries)).not.toContain("not the password");
  });

  it("takes an authenticator code instead, once", async () => {
    const admin = await createUser({ isAdmin: true });
    const secret = await turnOnTwoFactor(admin);
    const target = await createUser();
    await provedAgo(admin.id, 20);
    const path = `/admin/members/${target.id}`;
    const params = { userId: target.id };
    const asked = (await post(
      memberRoute.action,
      path,
      admin.cookie,
      {
        intent: "make-admin",
        confirm: "yes",
      },
      params,
    )) as Thrown;
    expect(asked.data.twoFactor).toBe(true);
    const code = totpCode(secret, Date.now() + 30_000);
    const made = await post(
      memberRoute.action,
      path,
      admin.cookie,
      {
        intent: "make-admin",
        confirm: "yes",
        confirmCode: code,
      },
      params,
    );
    expect(redirectTarget(made)).toBe(path);
    expect(await accessOf(target.id)).toBe("admin");

    // The same code proves nothing a second time.
    await provedAgo(admin.id, 20);
    const again = (await post(
      memberRoute.action,
      path,
      admin.cookie,
      {
        intent: "remove-admin",
        confirm: "yes",
        confirmCode: code,
      },
      params,
    )) as Thrown;
    expect(again.init.status).toBe(401);
    expect(again.data.error).toBe(totpCodeUsed);
    expect(await accessOf(target.id)).toBe("admin");
  });

  it("guards the offer settings and payments too, keeping what was typed", async () => {
    const admin = await createUser({ isAdmin: true });
    await provedAgo(admin.id, 30);
    const { values } = (
      (await settingsRoute.loader({
        request: appRequest("/admin/settings", { cookie: admin.cookie }),
        params: {},
        context: {},
      } as never)) as unknown as { data: { values: Record<string, string> } }
    ).data;
    const form = { ...values, couponCode: "PROOF42" };
    const asked = (await post(
      settingsRoute.action,
      "/admin/settings",
      admin.cookie,
      form,
    )) as Thrown;
    expect(asked.init.status).toBe(401);
    expect(Object.fromEntries(asked.data.fields)).toEqual(form);
    const saved = await post(settingsRoute.action, "/admin/settings", admin.cookie, {
      ...form,
      confirmPassword: admin.password,
    });
    expect(redirectTarget(saved)).toBe("/admin/settings");
    const { settings } = await readOfferSettings(await db());
    expect(settings.couponCode).toBe("PROOF42");

    await provedAgo(admin.id, 30);
    const payment = (await post(membersRoute.action, "/admin/members", admin.cookie, {
      intent: "attach",
      provider: "stripe",
      providerRef: "cs_none",
      email: "someone@example.test",
    })) as Thrown;
    expect(payment.init.status).toBe(401);
  });

  it("guards a product's price, keeping what was typed", async () => {
    const admin = await createUser({ isAdmin: true });
    await provedAgo(admin.id, 30);
    const form = { product: "white-label", price: "39", regularPrice: "997" };
    const asked = (await post(
      productsRoute.action,
      "/admin/products",
      admin.cookie,
      form,
    )) as Thrown;
    expect(asked.init.status).toBe(401);
    expect(Object.fromEntries(asked.data.fields)).toEqual(form);
    const { settings } = await readOfferSettings(await db());
    expect(settings.whiteLabelPriceCents).toBe(offerDefaults.whiteLabelPriceCents);
  });
});
