import { data, Form, useNavigation } from "react-router";
import { Notice } from "~/components/form-answer";
import { ErrorBox, primaryButton, secondaryButton } from "~/components/ui";
import { site } from "~/config/site";
import { z } from "~/lib/zod";
import { getDb } from "~/server/db/db.server";
import { getEnv } from "~/server/env.server";
import { readCheckedForm, redirectWithNotice, takeNotice } from "~/server/forms.server";
import {
  preferencesUrl,
  readEmailPreference,
  readUnsubscribeToken,
  setMarketingEmail,
} from "~/server/mail/preferences.server";
import type { Route } from "./+types/preferences";

// The page every marketing e-mail's footer links to: the member's choice, by
// the signed token in the link (no sign-in: it works from any mail client).

export const meta: Route.MetaFunction = () => [
  { title: `E-mail preferences | ${site.brand}` },
  { name: "robots", content: "noindex" },
];

const tokenField = z.string().trim().min(1).max(500);
const preferenceFormSchema = z.object({
  token: tokenField,
  intent: z.enum(["unsubscribe", "subscribe"], "Unknown action"),
});

function claimOf(token: string | null) {
  const checked = tokenField.safeParse(token);
  return checked.success ? readUnsubscribeToken(getEnv().authSecret, checked.data) : null;
}

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const claim = claimOf(token);
  const preference = claim ? await readEmailPreference(await getDb(), claim.userId) : null;
  const { notice, headers } = takeNotice(request);
  if (!claim || !preference) {
    return data({ state: null, token: "", notice }, { status: claim ? 404 : 400, headers });
  }
  return data(
    {
      state: {
        email: preference.email,
        subscribed: preference.unsubscribedAt === null,
        undeliverable: preference.undeliverableAt !== null,
      },
      token: token ?? "",
      notice,
    },
    { headers },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const checked = await readCheckedForm(request, preferenceFormSchema);
  if (!checked.ok) return checked.refuse(400, { formError: "This link is not valid." });
  const claim = claimOf(checked.data.token);
  if (!claim) return checked.refuse(400, { formError: "This link is not valid." });
  const subscribed = checked.data.intent === "subscribe";
  if (!(await setMarketingEmail(await getDb(), claim, subscribed))) {
    return checked.refuse(404, { formError: "This account no longer exists." });
  }
  const back = preferencesUrl("", checked.data.token);
  return redirectWithNotice(
    back,
    subscribed
      ? "Subscribed again: you will get our news and course e-mails."
      : "Unsubscribed: we will send you no more news or course e-mails.",
  );
}

export default function EmailPreferences({ loaderData }: Route.ComponentProps) {
  const { state, token, notice } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <main className="mx-auto max-w-xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold">E-mail preferences</h1>
      <Notice notice={notice} />
      {state ? (
        <section
          aria-labelledby="marketing-heading"
          className="mt-4 rounded-lg border border-slate-200 bg-white p-5 sm:p-6"
        >
          <h2 id="marketing-heading" className="text-lg font-semibold">
            News and course e-mails
          </h2>
          <p className="mt-2 break-words text-slate-700">
            For <strong>{state.email}</strong>:{" "}
            {state.subscribed
              ? "you get our announcements, new chapters and welcome e-mails."
              : "you are unsubscribed. We send you none of these."}
          </p>
          {state.undeliverable ? (
            <p className="mt-2 text-sm text-amber-800">
              Our last e-mail to this address was refused by its mail server, so none are sent to it
              for now.
            </p>
          ) : null}
          <Form method="post" className="mt-4" aria-busy={busy}>
            <input type="hidden" name="token" value={token} />
            <button
              type="submit"
              name="intent"
              value={state.subscribed ? "unsubscribe" : "subscribe"}
              disabled={busy}
              className={state.subscribed ? secondaryButton : `${primaryButton} sm:w-auto`}
            >
              {busy ? "Saving…" : state.subscribed ? "Unsubscribe" : "Subscribe again"}
            </button>
          </Form>
          <p className="mt-4 text-sm text-slate-600">
            Receipts, password links and sign-in e-mails are always sent: they are about your
            account.
          </p>
        </section>
      ) : (
        <div className="mt-4">
          <ErrorBox>
            This link is not valid. Open the link in one of our e-mails again, or write to{" "}
            {site.supportEmail}.
          </ErrorBox>
        </div>
      )}
    </main>
  );
}
