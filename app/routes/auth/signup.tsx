import { data, Form, Link, redirect, useNavigation } from "react-router";
import { AuthCard, ErrorBox, primaryButton, TextField } from "~/components/ui";
import { parseForm, passwordMinLength, signupSchema } from "~/lib/forms";
import { pageMeta } from "~/lib/seo";
import { redirectIfSignedIn } from "~/server/auth/guards.server";
import { signUpWithPassword } from "~/server/auth/sign-in.server";
import { readForm } from "~/server/forms.server";
import type { Route } from "./+types/signup";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Create Your Account | AI Labs",
    description:
      "Create your AI Labs account to get lifetime access to the course on building and launching your own AI SaaS app without writing code.",
    path: "/signup",
  });

export async function loader({ request }: Route.LoaderArgs) {
  await redirectIfSignedIn(request);
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const values = { name: String(form.get("name") ?? ""), email: String(form.get("email") ?? "") };
  const parsed = parseForm(signupSchema, form);
  if (!parsed.ok) return data({ values, fieldErrors: parsed.fieldErrors, formError: null }, 400);
  const outcome = await signUpWithPassword(request, parsed.data);
  if (outcome.status === "refused") {
    return data({ values, fieldErrors: {}, formError: outcome.error }, outcome.httpStatus);
  }
  throw redirect("/payment-options", { headers: outcome.headers });
}

export default function Signup({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const errors: Record<string, string> = actionData?.fieldErrors ?? {};
  return (
    <AuthCard title="Create Your Account" subtitle="Sign up to get lifetime access">
      <Form method="post" className="space-y-4">
        {actionData?.formError ? <ErrorBox>{actionData.formError}</ErrorBox> : null}
        <TextField
          label="Full Name"
          name="name"
          autoComplete="name"
          required
          defaultValue={actionData?.values.name}
          error={errors.name}
        />
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
          autoComplete="new-password"
          required
          minLength={passwordMinLength}
          error={errors.password}
        />
        <p className="text-xs text-slate-500">At least {passwordMinLength} characters.</p>
        <button type="submit" className={primaryButton} disabled={busy}>
          {busy ? "Creating account..." : "Create Account"}
        </button>
      </Form>
      <div className="mt-6 flex flex-wrap justify-between gap-x-4 gap-y-2 text-sm">
        <Link to="/login" className="text-indigo-700 underline">
          Already have an account? Sign in
        </Link>
        <Link to="/" className="text-slate-600 underline">
          Back to home
        </Link>
      </div>
    </AuthCard>
  );
}
