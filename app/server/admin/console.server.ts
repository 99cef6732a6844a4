import { data } from "react-router";
import type { z } from "~/lib/zod";
import { requireAdmin, type SessionUser } from "../auth/guards.server";
import type { Db } from "../db/client.server";
import { getDb } from "../db/db.server";

/**
 * The start of every console loader: the admin (anyone else goes to
 * /dashboard), the page's query string read by its schema (which falls back
 * to defaults rather than failing), and the database.
 */
export async function consoleRequest<S extends z.ZodType>(
  request: Request,
  querySchema: S,
): Promise<{ admin: SessionUser; query: z.output<S>; db: Db }> {
  const admin = await requireAdmin(request);
  const query = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return { admin, query, db: await getDb() };
}

export type ConsoleResult = { ok: true; message: string } | { ok: false; error: string };

/** A console action's answer: 200 with its message, or the refusal with its status. */
export function consoleAnswer(result: ConsoleResult, refusedStatus = 409) {
  return result.ok ? result : data(result, refusedStatus);
}

/** A form that did not pass its schema: 400 with the first field's message. */
export function invalidForm(fieldErrors: Record<string, string>) {
  return consoleAnswer({ ok: false, error: Object.values(fieldErrors)[0] ?? "Invalid input" }, 400);
}

/**
 * A console page's loader: consoleRequest, then `read` with the database and
 * the parsed query; its result is the page's data.
 */
export function consoleLoader<S extends z.ZodType, T>(
  querySchema: S,
  read: (db: Db, query: z.output<S>) => Promise<T>,
) {
  return async ({ request }: { request: Request }): Promise<T> => {
    const { query, db } = await consoleRequest(request, querySchema);
    return read(db, query);
  };
}
