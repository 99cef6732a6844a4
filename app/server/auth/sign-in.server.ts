import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { getDb } from "../db/db.server";
import { account, user } from "../db/schema";
import { getEnv } from "../env.server";
import { logger } from "../logger.server";
import { getAuth } from "./better-auth.server";
import { clientAddress } from "./client-address.server";
import { clearSessionCookies, readPendingSignIn } from "./cookies.server";
import { authErrorCode, authErrorMessage, isBusy, signInExpired } from "./errors.server";
import { homeFor } from "./guards.server";
import { isKnownAddress, rememberAddress } from "./known-addresses.server";
import {
  hashPassword,
  needsRehash,
  passwordCostFor,
  refuseCommonPassword,
} from "./password.server";
import {
  countLoginAttempt,
  forgetLoginAttempts,
  getRateLimits,
  type RateLimits,
  tooManyAttempts,
} from "./rate-limit.server";
import { isSignInLinkFor, sendSignInLink, spendSignInLink } from "./sign-in-link.server";
import { recordSignIn, recordSignInRefused, verifySecondFactor } from "./two-factor.server";

/** The answer once an account's limit for new places is used up (the same whether it exists). */
export const signInLinkSent =
  "Too many wrong passwords were tried for this account from new places, so we hold back sign-ins from here for a while. If the account exists, we have e-mailed it a one-time sign-in link: open it, then sign in with your password.";

export type SignInOutcome =
  /** Signed in: go home (docs/product.md, Sign-in routing) with these Set-Cookie headers. */
  | { status: "signed-in"; home: "/dashboard" | "/payment-options"; headers: Headers }
  /** Password right, two-factor on: ask for a code; the headers carry the pending sign-in cookie. */
  | { status: "code-required"; headers: Headers }
  | { status: "refused"; httpStatus: 400 | 429 | 503; error: string };

/**
 * Checks an e-mail and password, counted against the sign-in rate limits
 * first (countLoginAttempt). Past the account's limit for new places, the
 * owner is mailed a one-time sign-in link (at most one per window) instead;
 * `link`, the token of such a link, lets this attempt past that limit once.
 * A right password from a new place records the address once signed in, and
 * upgrades a hash of an older cost. With two-factor on, no session exists
 * yet: Better Auth sets only its signed two_factor cookie, which
 * session.server.ts never reads.
 */
export async function signInWithPassword(
  request: Request,
  credentials: { email: string; password: string; link?: string | undefined },
  limits: RateLimits = getRateLimits(),
): Promise<SignInOutcome> {
  const { email, password, link } = credentials;
  const address = clientAddress(request);
  const db = await getDb();
  const allowance = await countLoginAttempt(
    limits,
    address,
    email,
    async () =>
      (await isKnownAddress(db, email, address)) ||
      (link !== undefined && (await isSignInLinkFor(db, link, email))),
  );
  if (allowance === "address-limited") {
    return { status: "refused", httpStatus: 429, error: tooManyAttempts };
  }
  if (allowance === "account-limited") {
    if (await limits.login.linkPerEmail.hit(email.toLowerCase())) {
      await sendSignInLink(db, email).catch((error: unknown) =>
        logger.error({ err: error }, "sign-in link not sent"),
      );
    }
    return { status: "refused", httpStatus: 429, error: signInLinkSent };
  }
  const auth = await getAuth();
  const signIn = () =>
    auth.api.signInEmail({
      body: { email, password },
      headers: request.headers,
      returnHeaders: true,
    });
  let result: Awaited<ReturnType<typeof signIn>>;
  try {
    result = await signIn();
  } catch (error) {
    if (isBusy(error))
      return { status: "refused", httpStatus: 503, error: authErrorMessage(error) };
    await recordSignInRefused(credentials.email, authErrorCode(error));
    return {
      status: "refused",
      httpStatus: 400,
      error: authErrorMessage(error),
    };
  }
  await forgetLoginAttempts(limits, address, email);
  if (link !== undefined) await spendSignInLink(db, link);
  await upgradePasswordHash(db, email, password);
  const response = result.response;
  if ("twoFactorRedirect" in response) return { status: "code-required", headers: result.headers };
  await rememberAddress(db, response.user.id, address);
  await recordSignIn(response.user, "password");
  const home = await homeFor({ id: response.user.id, isAdmin: response.user.isAdmin === true });
  return { status: "signed-in", home, headers: result.headers };
}

/**
 * After a right password: rehashes it at today's cost if the stored hash was
 * made with another (older) one. Idempotent; one lookup when nothing changes.
 */
export async function upgradePasswordHash(db: Db, email: string, password: string) {
  const cost = passwordCostFor(getEnv().nodeEnv);
  const [credential] = await db
    .select({ id: account.id, hash: account.password })
    .from(account)
    .innerJoin(user, eq(user.id, account.userId))
    .where(and(eq(user.email, email.toLowerCase()), eq(account.providerId, "credential")))
    .limit(1);
  if (!credential?.hash || !needsRehash(credential.hash, cost)) return;
  const hash = await hashPassword(password, cost);
  // Only if it is still the hash just verified (not changed in between).
  await db
    .update(account)
    .set({ password: hash, updatedAt: new Date() })
    .where(and(eq(account.id, credential.id), eq(account.password, credential.hash)));
}

export type SignUpOutcome =
  /** Account created and signed in: go to /payment-options with these Set-Cookie headers. */
  | { status: "signed-up"; headers: Headers }
  | { status: "refused"; httpStatus: 400 | 429 | 503; error: string };

/**
 * Creates an account (never an admin: isAdmin is not an input) and signs it
 * in, counted against the per-address sign-up limit first.
 */
export async function signUpWithPassword(
  request: Request,
  input: { name: string; email: string; password: string },
  limits: RateLimits = getRateLimits(),
): Promise<SignUpOutcome> {
  if (!(await limits.signup.perAddress.hit(clientAddress(request)))) {
    return { status: "refused", httpStatus: 429, error: tooManyAttempts };
  }
  const auth = await getAuth();
  try {
    await refuseCommonPassword(input.password);
    const { headers } = await auth.api.signUpEmail({
      body: input,
      headers: request.headers,
      returnHeaders: true,
    });
    return { status: "signed-up", headers };
  } catch (error) {
    logger.info({ code: authErrorCode(error) }, "sign-up refused");
    const message = authErrorMessage(error, "An error occurred during signup");
    return { status: "refused", httpStatus: isBusy(error) ? 503 : 400, error: message };
  }
}

/**
 * Ends every session of the request's user (global scope) and answers the
 * headers that clear the browser: Set-Cookie expiry for the session cookies
 * and Clear-Site-Data for the rest. On an error it still clears them.
 */
export async function signOutEverywhere(request: Request): Promise<Headers> {
  const headers = new Headers({ "Clear-Site-Data": '"cache", "cookies", "storage"' });
  try {
    const auth = await getAuth();
    if (await auth.api.getSession({ headers: request.headers })) {
      await auth.api.revokeSessions({ headers: request.headers });
    }
    const signedOut = await auth.api.signOut({ headers: request.headers, returnHeaders: true });
    for (const cookie of signedOut.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  } catch (error) {
    logger.warn({ err: error }, "logout failed; browser cleared anyway");
  }
  return clearSessionCookies(headers);
}

/** Whether the request carries a validly signed pending two-factor sign-in cookie. */
export function hasPendingSignIn(request: Request): boolean {
  return readPendingSignIn(request) !== null;
}

/**
 * The second sign-in step: an authenticator code, or a recovery code (which
 * then stops working). Counted per account against the two-factor limit
 * before the code is checked; Better Auth also ends a pending sign-in after
 * 5 wrong codes and locks the account's codes for 15 minutes after 10.
 */
export async function verifySignInCode(
  request: Request,
  input: { method: "totp" | "recovery"; code: string },
  limits: RateLimits = getRateLimits(),
): Promise<SignInOutcome> {
  const challenge = readPendingSignIn(request);
  if (!challenge) return { status: "refused", httpStatus: 400, error: signInExpired };
  const auth = await getAuth();
  const pending = await (await auth.$context).internalAdapter.findVerificationValue(challenge);
  if (!pending || pending.expiresAt < new Date()) {
    return { status: "refused", httpStatus: 400, error: signInExpired };
  }
  const userId = pending.value;
  if (!(await limits.twoFactor.perAccount.hit(userId))) {
    return { status: "refused", httpStatus: 429, error: tooManyAttempts };
  }
  const result = await verifySecondFactor(request, userId, input);
  if (!result.ok) return { status: "refused", httpStatus: 400, error: result.error };
  await limits.twoFactor.perAccount.reset(userId);
  const { user } = result;
  await rememberAddress(await getDb(), user.id, clientAddress(request));
  const home = await homeFor({ id: user.id, isAdmin: user.isAdmin === true });
  return { status: "signed-in", home, headers: result.headers };
}
