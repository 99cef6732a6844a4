import {
  AuthForm,
  AuthLinks,
  EmailField,
  StatusBox,
  SubmitButton,
  useAnsweredForm,
} from "~/components/auth/fields";
import { AuthCard } from "~/components/ui";
import { forgotPasswordSchema } from "~/lib/forms";
import { pageMeta } from "~/lib/seo";
import { signedOutPageLoader } from "~/server/auth/guards.server";
import { requestPasswordReset } from "~/server/auth/password-reset.server";
import { readCheckedForm } from "~/server/forms.server";
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
  const form = await readCheckedForm(request, forgotPasswordSchema, ["email"]);
  if (!form.ok) return form.refusal;
  const result = await requestPasswordReset(request, form.data.email);
  if (!result.ok) return form.refuse(429, { formError: result.error });
  // Not a notice for another page: this page, answered, says it in place of the form.
  return { sent: result.message };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const { busy, errors } = useAnsweredForm(actionData);
  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter your e-mail address and we will send you a link to choose a new one."
    >
      {actionData && "sent" in actionData ? (
        <StatusBox>{actionData.sent}</StatusBox>
      ) : (
        <AuthForm answer={actionData}>
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
