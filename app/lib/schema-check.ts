import { useState } from "react";
import { type FieldErrors, parseForm } from "./forms";
import type { z } from "./zod";

/**
 * Checks a form in the browser with the schema its action parses it with: a
 * submission the action would refuse is not sent, and its field errors are
 * shown at once, with the same messages. The action still checks everything.
 * The pressed button's name and value (an intent) are part of what is checked.
 */
export function useSchemaCheck(schema: z.ZodType): {
  errors: FieldErrors | null;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
} {
  const [errors, setErrors] = useState<FieldErrors | null>(null);
  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const parsed = parseForm(schema, new FormData(event.currentTarget, submitter));
    if (parsed.ok) {
      setErrors(null);
      return;
    }
    event.preventDefault();
    setErrors(parsed.fieldErrors);
  }
  return { errors, onSubmit };
}
