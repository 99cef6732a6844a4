import { data } from "react-router";
import { type FieldErrors, parseForm } from "~/lib/forms";
import type { z } from "~/lib/zod";
import { busyRetryAfterSeconds } from "~/server/auth/password.server";
import { readForm } from "~/server/forms.server";

// The actions of the sign-in and sign-up pages: read the form, check it, and
// answer with the form again (the values typed, what is wrong) when refused.

/**
 * Reads the request's form and checks it with `schema`. `typed` names the fields
 * shown again with what was typed in them (never a password). Either the data
 * and a way to refuse it, or the 400 answer listing the fields in error.
 */
export async function readAuthForm<T extends z.ZodType, K extends string>(
  request: Request,
  schema: T,
  typed: readonly K[],
) {
  const form = await readForm(request);
  const values = {} as Record<K, string>;
  for (const key of typed) values[key] = String(form.get(key) ?? "");
  const answer = (fieldErrors: FieldErrors, formError: string | null, status: number) =>
    data(
      { values, fieldErrors, formError },
      // A busy server (decision 026) says when to try again.
      { status, headers: status === 503 ? { "Retry-After": String(busyRetryAfterSeconds) } : {} },
    );
  const parsed = parseForm(schema, form);
  if (!parsed.ok) return { ok: false as const, answer: answer(parsed.fieldErrors, null, 400) };
  return {
    ok: true as const,
    data: parsed.data,
    /** The form again, with an error about it as a whole. */
    refuse: (formError: string, status: number) => answer({}, formError, status),
  };
}
