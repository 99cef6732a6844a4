import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { clientIpHeader, getAuth } from "~/server/auth/better-auth.server";
import { storedResetIdentifier } from "~/server/auth/password-reset.server";
import { getDb } from "~/server/db/db.server";
import { purchase, user as userTable, verification } from "~/server/db/schema";
import { type Env, getEnv } from "~/server/env.server";
import { fulfilPurchase } from "~/server/payments/purchases.server";

export const origin = "http://localhost:3000";

export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${randomUUID()}@example.test`;
}

export type TestUser = { id: string; email: string; password: string; cookie: string };

/** Signs a user up through Better Auth and returns the session cookie it set. */
export async function createUser(
  options: { isAdmin?: boolean; paid?: boolean; name?: string } = {},
): Promise<TestUser> {
  const auth = await getAuth();
  const email = uniqueEmail();
  const password = "correct horse battery";
  const { headers, response } = await auth.api.signUpEmail({
    body: { name: options.name ?? "Test User", email, password },
    headers: new Headers({ origin }),
    returnHeaders: true,
  });
  const db = await getDb();
  if (options.isAdmin) {
    await db.update(userTable).set({ isAdmin: true }).where(eq(userTable.id, response.user.id));
  }
  if (options.paid) {
    await fulfilPurchase(db, {
      userId: response.user.id,
      provider: "test",
      providerRef: randomUUID(),
      product: "lifetime-access",
      amountCents: 2500,
      currency: "usd",
    });
  }
  return { id: response.user.id, email, password, cookie: cookieHeader(headers) };
}

/** The Cookie header a browser would send back for these Set-Cookie headers. */
export function cookieHeader(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => c && !c.endsWith("="))
    .join("; ");
}

/** A GET (or form POST when `form` is given) to the app, as a browser on our origin sends it. */
export function appRequest(
  path: string,
  options: {
    cookie?: string;
    /** The fields, or name-value pairs where a name repeats (ticked checkboxes). */
    form?: Record<string, string> | [string, string][];
    clientIp?: string;
  } = {},
): Request {
  const headers = new Headers({ origin });
  if (options.cookie) headers.set("cookie", options.cookie);
  // What the HTTP shell sets from the socket (or a trusted proxy's X-Forwarded-For).
  if (options.clientIp) headers.set(clientIpHeader, options.clientIp);
  if (!options.form) return new Request(`${origin}${path}`, { headers });
  return new Request(`${origin}${path}`, {
    method: "POST",
    headers,
    body: new URLSearchParams(options.form),
  });
}

/** Runs a loader or action and returns the redirect it threw or returned, or its value. */
export async function run<T>(fn: () => Promise<T> | T): Promise<T | Response> {
  try {
    return await fn();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

export function redirectTarget(result: unknown): string | null {
  return result instanceof Response && result.status >= 300 && result.status < 400
    ? result.headers.get("location")
    : null;
}

/** Runs `fn` with some settings changed, as if the server had been started with them. */
export async function withEnv<T>(
  changes: Partial<Env> | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  const env = getEnv();
  const saved = Object.fromEntries(Object.keys(changes ?? {}).map((k) => [k, env[k as keyof Env]]));
  Object.assign(env, changes);
  try {
    return await fn();
  } finally {
    Object.assign(env, saved);
  }
}

/** How long a mailed reset or set-password token has left, in milliseconds (0 or less when it is not stored). */
export async function tokenTimeLeft(token: string): Promise<number> {
  const [row] = await (await getDb())
    .select({ expiresAt: verification.expiresAt })
    .from(verification)
    .where(eq(verification.identifier, storedResetIdentifier(token)));
  return (row?.expiresAt.getTime() ?? 0) - Date.now();
}

/** Every purchase row of a user. */
export async function purchasesOf(userId: string) {
  return (await getDb()).select().from(purchase).where(eq(purchase.userId, userId));
}
