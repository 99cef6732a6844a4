import { Form, Link, useNavigation } from "react-router";
import { AuthCard, ErrorBox, primaryButton } from "~/components/ui";
import { changeLinkExpired } from "~/lib/account-forms";
import { z } from "~/lib/zod";
import { confirmEmailChange, readEmailChange } from "~/server/auth/change-email.server";
import { getDb } from "~/server/db/db.server";
import { readCheckedForm } from "~/server/forms.server";
import type { Route } from "./+types/confirm-email";

// The link e-mailed to a new address (change-email.server.ts): the page names
// the address and a button confirms it. Opening the link changes nothing, so a
// mail scanner that follows links confirms nothing.

export const meta: Route.MetaFunction = () => [
  { title: "Confirm your new e-mail address | AI Labs" },
  { name: "robots", content: "noindex" },
];

/** The page carries a token in its URL and form: no cache may keep it. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const change = await readEmailChange(await getDb(), token);
  return { token, newEmail: change?.newEmail ?? null };
}

const confirmSchema = z.object({ token: z.string().min(1, changeLinkExpired).max(200) });

export async function action({ request }: Route.ActionArgs) {
  const form = await readCheckedForm(request, confirmSchema);
  if (!form.ok) return form.refusal;
  const done = await confirmEmailChange(await getDb(), form.data.token);
  if (!done.ok) return form.refuse(400, { formError: done.error });
  return { changed: done.newEmail };
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const changed = actionData && "changed" in actionData ? actionData.changed : null;
  const error = actionData && "formError" in actionData ? actionData.formError : null;
  if (changed) {
    return (
      <AuthCard title="E-mail address changed">
        <div className="space-y-4">
          <p role="status" className="text-slate-700">
            Your account's e-mail address is now{" "}
            <strong className="break-all text-slate-900">{changed}</strong>. Sign in with it from
            now on.
          </p>
          <Link to="/account" className={primaryButton}>
            Go to your account
          </Link>
        </div>
      </AuthCard>
    );
  }
  if (!loaderData.newEmail || error) {
    return (
      <AuthCard title="Confirm your new e-mail address">
        <div className="space-y-4">
          <ErrorBox>{error ?? changeLinkExpired}</ErrorBox>
          <Link to="/account" className={primaryButton}>
            Go to your account
          </Link>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Confirm your new e-mail address">
      <Form method="post" className="space-y-4">
        <p className="text-slate-700">
          From now on you will sign in with{" "}
          <strong className="break-all text-slate-900">{loaderData.newEmail}</strong>.
        </p>
        <input type="hidden" name="token" value={loaderData.token} />
        <button type="submit" className={primaryButton} disabled={busy}>
          {busy ? "Confirming…" : "Confirm new address"}
        </button>
      </Form>
    </AuthCard>
  );
}
