import { Link, redirect } from "react-router";
import {
  AuthForm,
  NewPasswordFields,
  SubmitButton,
  useAnsweredForm,
} from "~/components/auth/fields";
import { AuthCard, ErrorBox, primaryButton } from "~/components/ui";
import { resetPasswordSchema } from "~/lib/forms";
import { isResetTokenUsable, resetPassword } from "~/server/auth/password-reset.server";
import { getDb } from "~/server/db/db.server";
import { readCheckedForm } from "~/server/forms.server";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = () => [
  { title: "Choose a new password | AI Labs" },
  { name: "robots", content: "noindex" },
];

/** The page carries a reset token in its URL and form: no cache may keep it. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

const expiredLinkMessage = "This link has expired or has already been used.";

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const usable = await isResetTokenUsable(await getDb(), token);
  return { token, usable };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readCheckedForm(request, resetPasswordSchema);
  if (!form.ok) return form.refusal;
  const result = await resetPassword(form.data.token, form.data.password);
  if (!result.ok && result.reason === "refused-password") {
    return form.refuse(400, { fieldErrors: { password: result.message } });
  }
  if (!result.ok) {
    return result.reason === "invalid-token"
      ? form.refuse(400, { formError: expiredLinkMessage })
      : form.refuse(500, { formError: "An error occurred. Please try again." });
  }
  throw redirect("/login?reset=1", { headers: result.headers });
}

function ExpiredLink() {
  return (
    <div className="space-y-4">
      <ErrorBox>{expiredLinkMessage}</ErrorBox>
      <Link to="/forgot-password" className={primaryButton}>
        Request a new link
      </Link>
    </div>
  );
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { busy, errors } = useAnsweredForm(actionData);
  const expired = !loaderData.usable || actionData?.formError === expiredLinkMessage;
  return (
    <AuthCard title="Choose a new password" subtitle="You will then sign in with it.">
      {expired ? (
        <ExpiredLink />
      ) : (
        <AuthForm answer={actionData}>
          {errors.token ? <ErrorBox>{errors.token}</ErrorBox> : null}
          <input type="hidden" name="token" value={loaderData.token} />
          <NewPasswordFields
            fields={[
              { label: "New password", name: "password" },
              { label: "Confirm new password", name: "confirmPassword" },
            ]}
            errors={errors}
          />
          <SubmitButton busy={busy} busyLabel="Saving...">
            Save new password
          </SubmitButton>
        </AuthForm>
      )}
    </AuthCard>
  );
}
