import { data, Form } from "react-router";
import { AuthCard, ErrorBox, primaryButton } from "~/components/ui";
import { forgotPasswordSchema, parseForm } from "~/lib/forms";
import { requestPasswordReset } from "~/server/auth/password-reset.server";
import { readForm } from "~/server/forms.server";
import type { Route } from "./+types/forgot-password";
import { AuthLinks, EmailField, StatusBox, useAuthForm } from "./fields";

export const meta: Route.MetaFunction = () => [{ title: "Forgot your password? | AI Labs" }];

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
  const { busy, errors } = useAuthForm(actionData);
  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter your e-mail address and we will send you a link to choose a new one."
    >
      {actionData?.sent ? (
        <StatusBox>{actionData.sent}</StatusBox>
      ) : (
        <Form method="post" className="space-y-4">
          {actionData?.formError ? <ErrorBox>{actionData.formError}</ErrorBox> : null}
          <EmailField defaultValue={actionData?.values.email} error={errors.email} />
          <button type="submit" className={primaryButton} disabled={busy}>
            {busy ? "Sending..." : "Send reset link"}
          </button>
        </Form>
      )}
      <AuthLinks links={[{ to: "/login", label: "Back to sign in" }]} />
    </AuthCard>
  );
}
