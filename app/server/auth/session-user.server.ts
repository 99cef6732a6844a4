// The request's session, looked up once per request: the user and whether
// they are a member. The guards (guards.server.ts) and the two-factor
// actions (two-factor.server.ts) both start from it.

import { getDb } from "../db/db.server";
import { cookieKeys } from "./cookies.server";
import { findSessionMember, type SessionMember, sessionTokenReader } from "./session.server";

export type SessionUser = {
  id: string;
  name: string;
  email: string;
  isAdmin: boolean;
  twoFactorEnabled: boolean;
};

const lookups = new WeakMap<Request, Promise<SessionMember | null>>();

/**
 * The session's user and their membership, looked up once per request (the
 * root loader and the route's loader share it): one query, none at all for a
 * request without a validly signed session cookie.
 */
export function lookUpSession(request: Request): Promise<SessionMember | null> {
  let lookup = lookups.get(request);
  if (!lookup) {
    const token = sessionTokenReader(cookieKeys())(request.headers.get("cookie"));
    lookup = token ? getDb().then((db) => findSessionMember(db, token)) : Promise.resolve(null);
    lookups.set(request, lookup);
  }
  return lookup;
}

/**
 * The request's session as a statement made after it arrived already found
 * it (the page cache's stamp read, decision 056): lookUpSession answers it
 * without a query.
 */
export function seedSessionLookup(request: Request, member: SessionMember): void {
  if (!lookups.has(request)) lookups.set(request, Promise.resolve(member));
}

/** The signed-in user, or null. */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  return (await lookUpSession(request))?.user ?? null;
}

/** Whether the request's user is a member (admin, or a completed purchase). */
export async function isMember(request: Request): Promise<boolean> {
  return (await lookUpSession(request))?.isMember === true;
}
