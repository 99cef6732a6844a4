import { Link, redirect, useSearchParams } from "react-router";
import {
  AuthForm,
  AuthLinks,
  CurrentPasswordField,
  EmailField,
  StatusBox,
  SubmitButton,
  useAnsweredForm,
} from "~/components/auth/fields";
import { AuthCard } from "~/components/ui";
import { loginSchema } from "~/lib/forms";
import { pageMeta } from "~/lib/seo";
import type { RouteHandle } from "~/root";
import { signedOutPageLoader } from "~/server/auth/guards.server";
import { signInWithPassword } from "~/server/auth/sign-in.server";
import { readCheckedForm } from "~/server/forms.server";
import type { Route } from "./+types/login";
import { busyHeaders } from "./busy.server";

/** No Login button in the header of the sign-in page itself. */
export const handle: RouteHandle = { signInPage: true };

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
export const loader = signedOutPageLoader;

/** The form's own headers ("busy": Retry-After, decision 026) on the page as well as its data. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

export async function action({ request }: Route.ActionArgs) {
  const form = await readCheckedForm(request, loginSchema, ["email"]);
  if (!form.ok) return form.refusal;
  const outcome = await signInWithPassword(request, form.data);
  if (outcome.status === "refused") {
    const headers = busyHeaders(outcome.httpStatus);
    return form.refuse(outcome.httpStatus, { formError: outcome.error }, { headers });
  }
  // Pass the whole headers object on, so every Set-Cookie survives.
  const to = outcome.status === "code-required" ? "/login/two-factor" : outcome.home;
  throw redirect(to, { headers: outcome.headers });
}

export default function Login({ actionData }: Route.ComponentProps) {
  const { busy, errors } = useAnsweredForm(actionData);
  // Safe to read while rendering: the prerendered copy is served only for the plain /login;
  // /login?reset=1 (and ?deleted=1, after an account is deleted at /account) is rendered per
  // request, so the server and the client agree on it.
  const [searchParams] = useSearchParams();
  const passwordReset = searchParams.get("reset") === "1";
  const accountDeleted = searchParams.get("deleted") === "1";
  // /login?link=… comes from a one-time sign-in link (sign-in-link.server.ts), also rendered per request.
  const link = searchParams.get("link");
  return (
    <AuthCard title="Sign in to your account" subtitle="Welcome back">
      <AuthForm answer={actionData}>
        {passwordReset && !actionData ? (
          <StatusBox>Your password has been changed. Sign in with your new password.</StatusBox>
        ) : null}
        {accountDeleted && !actionData ? <StatusBox>Your account was deleted.</StatusBox> : null}
        {link ? (
          <>
            <input type="hidden" name="link" value={link} />
            {!actionData ? (
              <StatusBox>
                Sign in with your e-mail and password to finish: this link lets you through once.
              </StatusBox>
            ) : null}
          </>
        ) : null}
        <EmailField defaultValue={actionData?.values.email} error={errors.email} />
        <CurrentPasswordField error={errors.password} />
        <p className="text-right text-sm">
          <Link to="/forgot-password" className="text-indigo-700 underline">
            Forgot password?
          </Link>
        </p>
        <SubmitButton busy={busy} busyLabel="Signing in...">
          Sign in
        </SubmitButton>
      </AuthForm>
      <AuthLinks
        links={[
          { to: "/signup", label: "No account yet? Sign up" },
          { to: "/", label: "Back to home", muted: true },
        ]}
      />
    </AuthCard>
  );
}
