import { logger } from "../logger.server";
import { getAuth } from "./better-auth.server";
import { clearSessionCookies, readPendingSignIn } from "./cookies.server";
import { authErrorCode, authErrorMessage, signInExpired } from "./errors.server";
import { homeFor } from "./guards.server";
import {
  clientAddress,
  countLoginAttempt,
  forgetLoginAttempts,
  getRateLimits,
  type RateLimits,
  tooManyAttempts,
} from "./rate-limit.server";
import { recordSignIn, recordSignInRefused, verifySecondFactor } from "./two-factor.server";

export type SignInOutcome =
  /** Signed in: go home (docs/product.md, Sign-in routing) with these Set-Cookie headers. */
  | { status: "signed-in"; home: "/dashboard" | "/payment-options"; headers: Headers }
  /** Password right, two-factor on: ask for a code; the headers carry the pending sign-in cookie. */
  | { status: "code-required"; headers: Headers }
  | { status: "refused"; httpStatus: 400 | 429; error: string };

/**
 * Checks an e-mail and password, counted against the sign-in rate limits
 * first. With two-factor on, no session exists yet: Better Auth sets only
 * its signed two_factor cookie, which session.server.ts never reads.
 */
export async function signInWithPassword(
  request: Request,
  credentials: { email: string; password: string },
  limits: RateLimits = getRateLimits(),
): Promise<SignInOutcome> {
  const address = clientAddress(request);
  if (!(await countLoginAttempt(limits, address, credentials.email))) {
    return { status: "refused", httpStatus: 429, error: tooManyAttempts };
  }
  const auth = await getAuth();
  const signIn = () =>
    auth.api.signInEmail({ body: credentials, headers: request.headers, returnHeaders: true });
  let result: Awaited<ReturnType<typeof signIn>>;
  try {
    result = await signIn();
  } catch (error) {
    await recordSignInRefused(credentials.email, authErrorCode(error));
    return {
      status: "refused",
      httpStatus: 400,
      error: authErrorMessage(error),
    };
  }
  await forgetLoginAttempts(limits, address, credentials.email);
  const response = result.response;
  if ("twoFactorRedirect" in response) return { status: "code-required", headers: result.headers };
  await recordSignIn(response.user, "password");
  const home = await homeFor({ id: response.user.id, isAdmin: response.user.isAdmin === true });
  return { status: "signed-in", home, headers: result.headers };
}

export type SignUpOutcome =
  /** Account created and signed in: go to /payment-options with these Set-Cookie headers. */
  | { status: "signed-up"; headers: Headers }
  | { status: "refused"; httpStatus: 400 | 429; error: string };

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
    const { headers } = await auth.api.signUpEmail({
      body: input,
      headers: request.headers,
      returnHeaders: true,
    });
    return { status: "signed-up", headers };
  } catch (error) {
    logger.info({ code: authErrorCode(error) }, "sign-up refused");
    const message = authErrorMessage(error, "An error occurred during signup");
    return { status: "refused", httpStatus: 400, error: message };
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
  const home = await homeFor({ id: user.id, isAdmin: user.isAdmin === true });
  return { status: "signed-in", home, headers: result.headers };
}
