import { data, redirect } from "react-router";
import type { FieldErrors, FormAnswer } from "~/lib/form-answer";
import { parseForm } from "~/lib/forms";
import type { z } from "~/lib/zod";
import {
  adminNoticeCookie,
  clearCookie,
  cookieKeys,
  readSignedCookie,
  setSignedCookie,
} from "./auth/cookies.server";

// Forms in actions, in three steps: reading the body (readForm), checking it
// against its schema and refusing it in the one shape every form answers with
// (checkForm, formRefusal: decision 029), and the notice a successful form
// leaves for the next page (redirectWithNotice, takeNotice).
//
// Browsers send forms urlencoded or as multipart with a boundary; anything else
// is the client's mistake, answered 415 or 400 by readForm instead of a
// TypeError from request.formData() (a 500).

export const unsupportedFormMessage =
  "Send the form as application/x-www-form-urlencoded or multipart/form-data.";
export const malformedFormMessage = "The form could not be read: its body is not valid form data.";

const formTypes = "application/x-www-form-urlencoded, multipart/form-data";

function refusal(status: 400 | 415, message: string): Response {
  const headers = new Headers({ "Content-Type": "text/plain; charset=utf-8" });
  if (status === 415) headers.set("Accept-Post", formTypes);
  return new Response(message, { status, headers });
}

/**
 * The request's form. Throws a plain-text Response (which React Router shows in
 * the error boundary with its status) when the body is not a form: 415 for
 * another content type (JSON, text/plain, none), 400 for multipart without a
 * boundary or a body that does not parse.
 */
export async function readForm(request: Request): Promise<FormData> {
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  if (mediaType === "multipart/form-data") {
    if (!/;\s*boundary=/i.test(contentType)) throw refusal(400, malformedFormMessage);
  } else if (mediaType !== "application/x-www-form-urlencoded") {
    throw refusal(415, unsupportedFormMessage);
  }
  try {
    return await request.formData();
  } catch {
    throw refusal(400, malformedFormMessage);
  }
}

/** A field whose value is never sent back to the browser, whatever an action asks. */
const secretField = /password|secret|token|^code$|^confirmCode$|^uri$/i;

/**
 * The one answer to a refused form: `status` with `{ fieldErrors, formError,
 * values }` (FormAnswer) and whatever else the page needs to show the form
 * again (`extra`). A password, token or code is never among the values.
 */
export function formRefusal<E extends Record<string, unknown> = Record<never, never>>(
  status: number,
  refusal: Partial<FormAnswer> = {},
  options: { headers?: HeadersInit; extra?: E } = {},
) {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(refusal.values ?? {})) {
    if (!secretField.test(key)) values[key] = value;
  }
  const answer = {
    ...(options.extra as E),
    fieldErrors: refusal.fieldErrors ?? {},
    formError: refusal.formError ?? null,
    values,
  };
  return data(answer, { status, headers: options.headers });
}

/**
 * Checks a form read with readForm against its schema. `typed` names the
 * fields shown again with what was typed ("all" for every field but secrets).
 * Either the data and a way to refuse it (with the typed values), or the 400
 * refusal with the first message of each field.
 */
export function checkForm<T extends z.ZodType>(
  form: FormData,
  schema: T,
  typed: readonly string[] | "all" = [],
) {
  const values: Record<string, string> = {};
  for (const [key, value] of form) {
    if (typeof value === "string" && (typed === "all" || typed.includes(key))) values[key] = value;
  }
  if (typed !== "all") for (const key of typed) values[key] ??= "";
  const refuse = <E extends Record<string, unknown> = Record<never, never>>(
    status: number,
    refusal: Omit<Partial<FormAnswer>, "values"> = {},
    options: { headers?: HeadersInit; extra?: E } = {},
  ) => formRefusal(status, { ...refusal, values }, options);
  const parsed = parseForm(schema, form);
  if (!parsed.ok) {
    return {
      ok: false as const,
      fieldErrors: parsed.fieldErrors,
      refusal: formRefusal(400, { fieldErrors: parsed.fieldErrors, values }),
      refuse,
    };
  }
  return { ok: true as const, data: parsed.data, refuse };
}

/**
 * A form refused as a whole for its first field error: for forms whose fields
 * the visitor does not type (hidden fields, buttons), where a field's message
 * is the page's.
 */
export function firstError(fieldErrors: FieldErrors): Partial<FormAnswer> {
  return { fieldErrors, formError: Object.values(fieldErrors)[0] ?? "Invalid input" };
}

/** readForm, then checkForm: the request's form checked against its schema. */
export async function readCheckedForm<T extends z.ZodType>(
  request: Request,
  schema: T,
  typed: readonly string[] | "all" = [],
) {
  return checkForm(await readForm(request), schema, typed);
}

// The one flash notice: after a form succeeds, the action redirects (so a reload
// never posts again) with what it did in a signed cookie of one minute; the page
// it lands on says it once and clears it (decisions 014, 029). Signed, so no one else
// can make the site say something.

/** A form's success: go to `to`, whose page says `notice` once (takeNotice). */
export function redirectWithNotice(to: string, notice: string, headers = new Headers()) {
  return redirect(to, { headers: setSignedCookie(headers, adminNoticeCookie, notice, 60) });
}

/**
 * The notice the last form left for this page, if any, and the headers that
 * clear it (undefined when there is none), for the page's loader to answer with.
 */
export function takeNotice(request: Request): { notice: string | null; headers?: Headers } {
  const keys = cookieKeys();
  const notice = readSignedCookie(request.headers.get("cookie"), adminNoticeCookie, keys.secret);
  if (notice === null) return { notice: null };
  return { notice, headers: clearCookie(new Headers(), adminNoticeCookie, keys) };
}
