import { data, Form, Link, redirect, useNavigation } from "react-router";
import { AuthCard, ErrorBox, primaryButton, TextField } from "~/components/ui";
import { parseForm } from "~/lib/forms";
import { signInCodeSchema } from "~/lib/two-factor-forms";
import { redirectIfSignedIn } from "~/server/auth/guards.server";
import { hasPendingSignIn, verifySignInCode } from "~/server/auth/sign-in.server";
import { readForm } from "~/server/forms.server";
import type { Route } from "./+types/login-two-factor";

export const meta: Route.MetaFunction = () => [{ title: "Two-factor authentication | AI Labs" }];

/** Reached after a correct password when the account has two-factor on; nothing to do otherwise. */
export async function loader({ request }: Route.LoaderArgs) {
  await redirectIfSignedIn(request);
  if (!hasPendingSignIn(request)) throw redirect("/login");
  const method = new URL(request.url).searchParams.get("method");
  return { method: method === "recovery" ? ("recovery" as const) : ("totp" as const) };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const parsed = parseForm(signInCodeSchema, form);
  if (!parsed.ok) return data({ fieldErrors: parsed.fieldErrors, formError: null }, 400);
  const outcome = await verifySignInCode(request, parsed.data);
  if (outcome.status === "refused") {
    return data({ fieldErrors: {}, formError: outcome.error }, outcome.httpStatus);
  }
  if (outcome.status === "code-required") throw redirect("/login/two-factor");
  throw redirect(outcome.home, { headers: outcome.headers });
}

export default function LoginTwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const errors: Record<string, string> = actionData?.fieldErrors ?? {};
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
      <Form method="post" className="space-y-4">
        {actionData?.formError ? <ErrorBox>{actionData.formError}</ErrorBox> : null}
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
          <TextField
            key="totp"
            label="Authentication code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]*"
            maxLength={7}
            required
            autoFocus
            error={errors.code}
          />
        )}
        <button type="submit" className={primaryButton} disabled={busy}>
          {busy ? "Verifying..." : "Verify"}
        </button>
      </Form>
      <div className="mt-6 flex flex-wrap justify-between gap-x-4 gap-y-2 text-sm">
        {recovery ? (
          <Link to="/login/two-factor" className="text-indigo-700 underline">
            Use your authenticator app
          </Link>
        ) : (
          <Link to="/login/two-factor?method=recovery" className="text-indigo-700 underline">
            Use a recovery code
          </Link>
        )}
        <Link to="/login" className="text-slate-600 underline">
          Back to sign in
        </Link>
      </div>
    </AuthCard>
  );
}
