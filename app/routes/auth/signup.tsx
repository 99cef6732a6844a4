import { redirect } from "react-router";
import {
  AuthForm,
  AuthLinks,
  EmailField,
  NewPasswordFields,
  SubmitButton,
  useAnsweredForm,
} from "~/components/auth/fields";
import { AuthCard, TextField } from "~/components/ui";
import { signupSchema } from "~/lib/forms";
import { planOfferIn, planPagePath } from "~/lib/offer";
import { pageMeta } from "~/lib/seo";
import { signedOutPageLoader } from "~/server/auth/guards.server";
import { signUpWithPassword } from "~/server/auth/sign-in.server";
import { readCheckedForm } from "~/server/forms.server";
import type { Route } from "./+types/signup";
import { busyHeaders } from "./busy.server";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Create Your Account | AI Labs",
    description:
      "Create your AI Labs account to get lifetime access to the course on building and launching your own AI SaaS app without writing code.",
    path: "/signup",
  });

export const loader = signedOutPageLoader;

/** The form's own headers ("busy": Retry-After, decision 026) on the page as well as its data. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

export async function action({ request }: Route.ActionArgs) {
  const form = await readCheckedForm(request, signupSchema, ["name", "email"]);
  if (!form.ok) return form.refusal;
  const outcome = await signUpWithPassword(request, form.data);
  if (outcome.status === "refused") {
    const headers = busyHeaders(outcome.httpStatus);
    return form.refuse(outcome.httpStatus, { formError: outcome.error }, { headers });
  }
  // From a sales page's buy button (/buy/offer2): its price on the plan page.
  throw redirect(planPagePath(planOfferIn(request.url)), { headers: outcome.headers });
}

export default function Signup({ actionData }: Route.ComponentProps) {
  const { busy, errors } = useAnsweredForm(actionData);
  return (
    <AuthCard title="Create Your Account" subtitle="Sign up to get lifetime access">
      <AuthForm answer={actionData}>
        <TextField
          label="Full Name"
          name="name"
          autoComplete="name"
          required
          defaultValue={actionData?.values.name}
          error={errors.name}
        />
        <EmailField defaultValue={actionData?.values.email} error={errors.email} />
        <NewPasswordFields fields={[{ label: "Password", name: "password" }]} errors={errors} />
        <SubmitButton busy={busy} busyLabel="Creating account...">
          Create Account
        </SubmitButton>
      </AuthForm>
      <AuthLinks
        links={[
          { to: "/login", label: "Already have an account? Sign in" },
          { to: "/", label: "Back to home", muted: true },
        ]}
      />
    </AuthCard>
  );
}
