import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as adminRoute from "~/routes/admin/admin";
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
import { getDb } from "~/server/db/db.server";
import { course as courseTable, user } from "~/server/db/schema";
import { appRequest, createUser, origin, redirectTarget, run, withEnv } from "~/test/helpers";

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
    expect(redirectTarget(await load(adminRoute.loader, "/admin"))).toBe("/dashboard");
  });

  it("sends a paid non-admin to /dashboard", async () => {
    const u = await createUser({ paid: true });
    expect(redirectTarget(await load(adminRoute.loader, "/admin", u.cookie))).toBe("/dashboard");
  });

  it("lets an admin in", async () => {
    const u = await createUser({ isAdmin: true });
    expect(redirectTarget(await load(adminRoute.loader, "/admin", u.cookie))).toBeNull();
  });

  it("where two-factor is required, sends an admin without it to /account, for pages and actions alike", async () => {
    const u = await createUser({ isAdmin: true });
    await withEnv({ requireAdminTwoFactor: true }, async () => {
      expect(redirectTarget(await load(adminRoute.loader, "/admin", u.cookie))).toBe("/account");
      const action = await run(() =>
        adminRoute.action({
          request: appRequest("/admin", {
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
      expect(redirectTarget(await load(adminRoute.loader, "/admin", u.cookie))).toBeNull();
    });
    // Where it is not required (localhost by default), the admin without it is let in.
    const other = await createUser({ isAdmin: true });
    expect(redirectTarget(await load(adminRoute.loader, "/admin", other.cookie))).toBeNull();
  });
});

describe("plan page guard", () => {
  it("sends a visitor to /login", async () => {
    expect(redirectTarget(await load(paymentOptions.loader, "/payment-options"))).toBe("/login");
  });

  it("shows the plan to an unpaid user and tells a paid one they have access", async () => {
    const unpaid = await createUser();
    const paid = await createUser({ paid: true });
    // The plan's price comes from the offer settings (their defaults here).
    const plan = { priceCents: 2500, regularPriceCents: 19700 };
    expect(await load(paymentOptions.loader, "/payment-options", unpaid.cookie)).toEqual({
      hasAccess: false,
      ...plan,
    });
    expect(await load(paymentOptions.loader, "/payment-options", paid.cookie)).toEqual({
      hasAccess: true,
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
