// The shape of a refused form's answer, apart from the schemas (app/lib/forms.ts)
// so that the pages that do without the validation library can read it.

export type FieldErrors = Record<string, string>;

/**
 * What every action answers when it refuses a form (made by formRefusal in
 * app/server/forms.server.ts, shown by the page's form): the message of each
 * field in error, a message about the form as a whole, and what was typed in
 * the fields shown again (never a password).
 */
export type FormAnswer = {
  fieldErrors: FieldErrors;
  formError: string | null;
  values: Record<string, string>;
};

/** Whether an action's data is a refused form's answer (the page shows its errors). */
export function isFormAnswer(value: unknown): value is FormAnswer {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.fieldErrors === "object" &&
    v.fieldErrors !== null &&
    (v.formError === null || typeof v.formError === "string") &&
    typeof v.values === "object" &&
    v.values !== null
  );
}
