import { eq } from "drizzle-orm";
import { getAuth } from "~/server/auth/better-auth.server";
import { getDb } from "~/server/db/db.server";
import { twoFactor, user } from "~/server/db/schema";
import { origin, type TestUser } from "./helpers";

/**
 * Turns TOTP on for a test user and answers its base32 secret. Better Auth
 * stores the secret; it is marked confirmed here rather than with a code,
 * which would replace the session (and so the user's cookie).
 */
export async function turnOnTwoFactor(u: TestUser): Promise<string> {
  const auth = await getAuth();
  const started = await auth.api.enableTwoFactor({
    body: { password: u.password, method: "totp" },
    headers: new Headers({ origin, cookie: u.cookie }),
  });
  if (started.method !== "totp") throw new Error("expected the TOTP method");
  const secret = new URL(started.totpURI).searchParams.get("secret") ?? "";
  const db = await getDb();
  await db.update(twoFactor).set({ verified: true }).where(eq(twoFactor.userId, u.id));
  await db.update(user).set({ twoFactorEnabled: true }).where(eq(user.id, u.id));
  return secret;
}
