import { data } from "react-router";
import {
  AuthForm,
  AuthLinks,
  EmailField,
  StatusBox,
  SubmitButton,
  useAnsweredForm,
} from "~/components/auth/fields";
import { AuthCard } from "~/components/ui";
import { forgotPasswordSchema, parseForm } from "~/lib/forms";
import { pageMeta } from "~/lib/seo";
import { signedOutPageLoader } from "~/server/auth/guards.server";
import { requestPasswordReset } from "~/server/auth/password-reset.server";
import { readForm } from "~/server/forms.server";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Forgot your password? | AI Labs",
    description:
      "Forgot your AI Labs password? Enter your account's e-mail address and we will send you a link to choose a new one.",
    path: "/forgot-password",
  });

/** A signed-in user has no password to recover here: their home page, as /login does. */
export const loader = signedOutPageLoader;

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const values = { email: String(form.get("email") ?? "") };
  const parsed = parseForm(forgotPasswordSchema, form);
  if (!parsed.ok) {
    return data({ values, fieldErrors: parsed.fieldErrors, formError: null, sent: null }, 400);
  }
  const { email } = parsed.data;
  const result = await requestPasswordReset(request, email);
  if (!result.ok)
    return data({ values, fieldErrors: {}, formError: result.error, sent: null }, 429);
  return { values, fieldErrors: {}, formError: null, sent: result.message };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const { busy, errors } = useAnsweredForm(actionData);
  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter your e-mail address and we will send you a link to choose a new one."
    >
      {actionData?.sent ? (
        <StatusBox>{actionData.sent}</StatusBox>
      ) : (
        <AuthForm formError={actionData?.formError}>
          <EmailField defaultValue={actionData?.values.email} error={errors.email} />
          <SubmitButton busy={busy} busyLabel="Sending...">
            Send reset link
          </SubmitButton>
        </AuthForm>
      )}
      <AuthLinks links={[{ to: "/login", label: "Back to sign in" }]} />
    </AuthCard>
  );
}
