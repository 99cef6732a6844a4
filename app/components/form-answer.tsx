import { useLocation } from "react-router";
import { type FormAnswer, isFormAnswer } from "~/lib/form-answer";
import { ErrorBox } from "./ui";

// How a page shows what its form's action said: the refusal's message about the
// form as a whole (FormAnswer, one shape for every action), and the notice a
// successful form left for the page it redirected to (takeNotice, one cookie).

/** The error about the form as a whole in the action's answer, if it refused the form. */
export function FormError({ answer }: { answer: unknown }) {
  if (!isFormAnswer(answer) || !answer.formError) return null;
  return <ErrorBox>{answer.formError}</ErrorBox>;
}

/** The field errors of the action's answer, or none. */
export function fieldErrorsOf(answer: unknown): FormAnswer["fieldErrors"] {
  return isFormAnswer(answer) ? answer.fieldErrors : {};
}

/**
 * What the last form did, said once in a polite status region. Each navigation
 * renders it anew, so that a repeated message is announced again.
 */
export function Notice({
  notice,
  className = "mt-4",
}: {
  notice: string | null;
  className?: string;
}) {
  const { key } = useLocation();
  return (
    <div role="status" aria-live="polite" className={className}>
      {notice ? (
        <p key={key} className="rounded-md border border-green-300 bg-green-50 p-3 text-green-800">
          {notice}
        </p>
      ) : null}
    </div>
  );
}
