import { getAuth } from "./auth.server";
import { authErrorMessage } from "./auth-errors.server";
import { getEnv } from "./env.server";
import { homeFor } from "./guards.server";
import {
  clientAddress,
  countLoginAttempt,
  forgetLoginAttempts,
  getRateLimits,
  type RateLimits,
  tooManyAttempts,
} from "./rate-limit.server";
import { readSignedCookie, twoFactorCookieName } from "./session.server";
import { twoFactorErrorMessage } from "./two-factor.server";

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
    return {
      status: "refused",
      httpStatus: 400,
      error: authErrorMessage(error, "An error occurred"),
    };
  }
  await forgetLoginAttempts(limits, address, credentials.email);
  const response = result.response;
  if ("twoFactorRedirect" in response) return { status: "code-required", headers: result.headers };
  const home = await homeFor({ id: response.user.id, isAdmin: response.user.isAdmin === true });
  return { status: "signed-in", home, headers: result.headers };
}

/** Whether the request carries a validly signed pending two-factor sign-in cookie. */
export function hasPendingSignIn(request: Request): boolean {
  return pendingChallenge(request) !== null;
}

function pendingChallenge(request: Request): string | null {
  const env = getEnv();
  const secure = env.publicOrigin.startsWith("https://");
  return readSignedCookie(
    request.headers.get("cookie"),
    twoFactorCookieName(secure),
    env.authSecret,
  );
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
  const expired = "Your sign-in has expired. Please sign in again.";
  const challenge = pendingChallenge(request);
  if (!challenge) return { status: "refused", httpStatus: 400, error: expired };
  const auth = await getAuth();
  const pending = await (await auth.$context).internalAdapter.findVerificationValue(challenge);
  if (!pending || pending.expiresAt < new Date()) {
    return { status: "refused", httpStatus: 400, error: expired };
  }
  const userId = pending.value;
  if (!(await limits.twoFactor.perAccount.hit(userId))) {
    return { status: "refused", httpStatus: 429, error: tooManyAttempts };
  }
  let result: { headers: Headers; response: { user: { id: string; isAdmin?: unknown } } };
  try {
    result =
      input.method === "totp"
        ? await auth.api.verifyTOTP({
            body: { code: input.code },
            headers: request.headers,
            returnHeaders: true,
          })
        : await auth.api.verifyBackupCode({
            body: { code: input.code },
            headers: request.headers,
            returnHeaders: true,
          });
  } catch (error) {
    return { status: "refused", httpStatus: 400, error: twoFactorErrorMessage(error) };
  }
  await limits.twoFactor.perAccount.reset(userId);
  const { user } = result.response;
  const home = await homeFor({ id: user.id, isAdmin: user.isAdmin === true });
  return { status: "signed-in", home, headers: result.headers };
}
