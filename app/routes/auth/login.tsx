import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { AuthCard, ErrorBox, primaryButton, TextField } from "~/components/ui";
import { loginSchema, parseForm } from "~/lib/forms";
import { pageMeta } from "~/lib/seo";
import { redirectIfSignedIn } from "~/server/auth/guards.server";
import { signInWithPassword } from "~/server/auth/sign-in.server";
import { readForm } from "~/server/forms.server";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Sign in | AI Labs",
    description:
      "Sign in to your AI Labs account to continue the course, build with the AI app tools and download your bonuses.",
    path: "/login",
  });

/**
 * docs/product.md, Sign-in routing: admin or paid goes to /dashboard, any other
 * signed-in user to /payment-options.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await redirectIfSignedIn(request);
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const values = { email: String(form.get("email") ?? "") };
  const parsed = parseForm(loginSchema, form);
  if (!parsed.ok) return data({ values, fieldErrors: parsed.fieldErrors, formError: null }, 400);
  const outcome = await signInWithPassword(request, parsed.data);
  if (outcome.status === "refused") {
    return data({ values, fieldErrors: {}, formError: outcome.error }, outcome.httpStatus);
  }
  // Pass the whole headers object on, so every Set-Cookie survives.
  const to = outcome.status === "code-required" ? "/login/two-factor" : outcome.home;
  throw redirect(to, { headers: outcome.headers });
}

export default function Login({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const errors: Record<string, string> = actionData?.fieldErrors ?? {};
  // Safe to read while rendering: the prerendered copy is served only for the plain /login;
  // /login?reset=1 is rendered per request, so the server and the client agree on it.
  const passwordReset = useSearchParams()[0].get("reset") === "1";
  return (
    <AuthCard title="Sign in to your account" subtitle="Welcome back">
      <Form method="post" className="space-y-4">
        {passwordReset && !actionData ? (
          <p
            role="status"
            className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-800"
          >
            Your password has been changed. Sign in with your new password.
          </p>
        ) : null}
        {actionData?.formError ? <ErrorBox>{actionData.formError}</ErrorBox> : null}
        <TextField
          label="Email address"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={actionData?.values.email}
          error={errors.email}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={errors.password}
        />
        <p className="text-right text-sm">
          <Link to="/forgot-password" className="text-indigo-700 underline">
            Forgot password?
          </Link>
        </p>
        <button type="submit" className={primaryButton} disabled={busy}>
          {busy ? "Signing in..." : "Sign in"}
        </button>
      </Form>
      <div className="mt-6 flex flex-wrap justify-between gap-x-4 gap-y-2 text-sm">
        <Link to="/signup" className="text-indigo-700 underline">
          No account yet? Sign up
        </Link>
        <Link to="/" className="text-slate-600 underline">
          Back to home
        </Link>
      </div>
    </AuthCard>
  );
}
