import { redirect } from "react-router";
import { useCheckedForm } from "~/components/auth/checked-form";
import { AuthForm, AuthLinks, SubmitButton, TotpCodeField } from "~/components/auth/fields";
import { AuthCard, TextField } from "~/components/ui";
import { signInCodeSchema } from "~/lib/two-factor-forms";
import type { RouteHandle } from "~/root";
import { redirectIfSignedIn } from "~/server/auth/guards.server";
import { hasPendingSignIn, verifySignInCode } from "~/server/auth/sign-in.server";
import { readCheckedForm } from "~/server/forms.server";
import type { Route } from "./+types/login-two-factor";

/** No Login button in the header of the sign-in page itself. */
export const handle: RouteHandle = { signInPage: true };

export const meta: Route.MetaFunction = () => [{ title: "Two-factor authentication | AI Labs" }];

/** Reached after a correct password when the account has two-factor on; nothing to do otherwise. */
export async function loader({ request }: Route.LoaderArgs) {
  await redirectIfSignedIn(request);
  if (!hasPendingSignIn(request)) throw redirect("/login");
  const method = new URL(request.url).searchParams.get("method");
  return { method: method === "recovery" ? ("recovery" as const) : ("totp" as const) };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readCheckedForm(request, signInCodeSchema);
  if (!form.ok) return form.refusal;
  const outcome = await verifySignInCode(request, form.data);
  if (outcome.status === "refused") {
    return form.refuse(outcome.httpStatus, { formError: outcome.error });
  }
  if (outcome.status === "code-required") throw redirect("/login/two-factor");
  throw redirect(outcome.home, { headers: outcome.headers });
}

export default function LoginTwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const { busy, errors, onSubmit } = useCheckedForm(signInCodeSchema, actionData);
  const recovery = loaderData.method === "recovery";
  return (
    <AuthCard
      title="Two-factor authentication"
      subtitle={
        recovery
          ? "Enter one of the recovery codes you saved when you turned two-factor on. Each works once."
          : "Enter the 6-digit code from your authenticator app."
      }
    >
      <AuthForm answer={actionData} onSubmit={onSubmit}>
        <input type="hidden" name="method" value={recovery ? "recovery" : "totp"} />
        {recovery ? (
          <TextField
            key="recovery"
            label="Recovery code"
            name="code"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            required
            autoFocus
            error={errors.code}
          />
        ) : (
          <TotpCodeField key="totp" autoFocus error={errors.code} />
        )}
        <SubmitButton busy={busy} busyLabel="Verifying...">
          Verify
        </SubmitButton>
      </AuthForm>
      <AuthLinks
        links={[
          recovery
            ? { to: "/login/two-factor", label: "Use your authenticator app" }
            : { to: "/login/two-factor?method=recovery", label: "Use a recovery code" },
          { to: "/login", label: "Back to sign in", muted: true },
        ]}
      />
    </AuthCard>
  );
}
