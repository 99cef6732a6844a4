import { data, redirect } from "react-router";
import type { ProofRequired } from "~/lib/proof";
import { hasPaidAccess } from "../access.server";
import { getDb } from "../db/db.server";
import { getEnv } from "../env.server";
import { markSessionProved } from "./session.server";
import { getSessionUser, isMember, lookUpSession, type SessionUser } from "./session-user.server";
import { proveItIsYou } from "./two-factor.server";

// The session's user, for the callers that ask it along with a guard.
export { getSessionUser, isMember, type SessionUser } from "./session-user.server";

/** No session: redirect to /login. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw redirect("/login");
  return user;
}

/** No session: /login; signed in without paid access (and not admin): /payment-options. */
export async function requireMember(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (!(await isMember(request))) throw redirect("/payment-options");
  return user;
}

/** Anyone not signed in or not an admin goes to /dashboard (docs/product.md, Roles and access). */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user?.isAdmin) throw redirect("/dashboard");
  // Where it is required, an admin turns two-factor on first, on /account.
  if (adminNeedsTwoFactor(user)) throw redirect("/account");
  return user;
}

/** The fields of "confirm it's you" (ConfirmItsYou), taken out of the form before the action reads it. */
const proofFields = { password: "confirmPassword", code: "confirmCode" } as const;

/**
 * For a sensitive admin action (roles, access, refunds, offer settings),
 * after requireAdmin: the admin proved who they are (signed in, or gave their
 * password or a two-factor code) within ADMIN_PROOF_MINUTES in this session,
 * or gives the proof now in the submitted form (the fields are taken out of
 * it, and the session's proof time moves to now). Otherwise throws 401 with
 * what ConfirmItsYou needs to ask, the submitted fields included, so that the
 * change goes through once confirmed.
 */
export async function requireRecentProof(
  request: Request,
  admin: SessionUser,
  form: FormData,
): Promise<void> {
  const password = String(form.get(proofFields.password) ?? "");
  const code = String(form.get(proofFields.code) ?? "");
  form.delete(proofFields.password);
  form.delete(proofFields.code);
  const found = await lookUpSession(request);
  if (!found) throw redirect("/login");
  const age = Date.now() - found.session.provedAt.getTime();
  if (age < getEnv().adminProofMinutes * 60_000) return;
  let error: string | null = null;
  if (password || code) {
    const proved = await proveItIsYou(request, admin, { password, code });
    if (proved.ok) {
      await markSessionProved(await getDb(), found.session.id);
      return;
    }
    error = proved.error;
  }
  const fields: [string, string][] = [];
  for (const [name, value] of form) if (typeof value === "string") fields.push([name, value]);
  throw data<ProofRequired>(
    { proofRequired: true, twoFactor: admin.twoFactorEnabled, error, fields },
    401,
  );
}

/**
 * An admin who must turn two-factor on before admin work
 * (REQUIRE_ADMIN_TWO_FACTOR, Env.requireAdminTwoFactor) and has not.
 */
export function adminNeedsTwoFactor(user: SessionUser): boolean {
  return user.isAdmin && !user.twoFactorEnabled && getEnv().requireAdminTwoFactor;
}

/**
 * Whether a user reaches draft courses and chapters on the members' pages (to
 * preview them): an admin who may do admin work, as requireAdmin lets in.
 */
export function seesDrafts(user: SessionUser): boolean {
  return user.isAdmin && !adminNeedsTwoFactor(user);
}

/**
 * For the sign-in and sign-up pages: a signed-in user is sent where they belong
 * (docs/product.md, Sign-in routing), from the session lookup the request already made.
 */
export async function redirectIfSignedIn(request: Request): Promise<void> {
  const found = await lookUpSession(request);
  if (found) throw redirect(found.isMember ? "/dashboard" : "/payment-options");
}

/** The loader of a member page whose data is at hand (`read`, no query): members only. */
export function memberPageLoader<T>(read: () => T) {
  return async ({ request }: { request: Request }): Promise<T> => {
    await requireMember(request);
    return read();
  };
}

/** The loader of a page only for the signed out (sign-in, sign-up, forgotten password): no data. */
export async function signedOutPageLoader({ request }: { request: Request }): Promise<null> {
  await redirectIfSignedIn(request);
  return null;
}

/** Where a signed-in user belongs (docs/product.md, Sign-in routing). */
export async function homeFor(
  user: Pick<SessionUser, "id" | "isAdmin">,
): Promise<"/dashboard" | "/payment-options"> {
  return (await hasPaidAccess(await getDb(), user)) ? "/dashboard" : "/payment-options";
}
