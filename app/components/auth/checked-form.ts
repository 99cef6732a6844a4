import { useNavigation } from "react-router";
import { useSchemaCheck } from "~/lib/schema-check";
import type { z } from "~/lib/zod";
import { fieldErrorsOf } from "../form-answer";

// Apart from fields.tsx: the schema check brings the validation library to the
// browser, which the public sign-in pages do without (useAnsweredForm).

/**
 * A page's form checked with `schema`, the one its action parses it with: whether
 * it is being sent, its field errors (found in the browser, or in the last
 * answer), and the submit handler that checks it before it is sent.
 */
export function useCheckedForm(schema: z.ZodType, actionData: unknown) {
  const check = useSchemaCheck(schema);
  return {
    busy: useNavigation().state === "submitting",
    errors: check.errors ?? fieldErrorsOf(actionData),
    onSubmit: check.onSubmit,
  };
}
