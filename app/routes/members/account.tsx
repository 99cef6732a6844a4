import { data, redirect } from "react-router";
import { useCheckedForm } from "~/components/auth/checked-form";
import { TwoFactorSettings } from "~/components/members/two-factor-settings";
import { PageShell } from "~/components/ui";
import { accountTwoFactorSchema } from "~/lib/two-factor-forms";
import { requireMember } from "~/server/auth/guards.server";
import {
  confirmTwoFactorSetup,
  describeTwoFactorSetup,
  replaceRecoveryCodes,
  startTwoFactorSetup,
  takeRecoveryCodesToShow,
  turnOffTwoFactor,
} from "~/server/auth/two-factor.server";
import { checkForm, readForm } from "~/server/forms.server";
import type { Route } from "./+types/account";

export const meta: Route.MetaFunction = () => [{ title: "Account | AI Labs" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireMember(request);
  const shown = await takeRecoveryCodesToShow(request, user);
  return data(
    {
      email: user.email,
      twoFactorEnabled: user.twoFactorEnabled,
      recoveryCodes: shown?.recoveryCodes.length ? shown.recoveryCodes : null,
    },
    { headers: shown?.headers },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireMember(request);
  const form = await readForm(request);
  // A refused code shows the same QR code and key again, beside the form's answer.
  const setupAgain = async (uri: unknown) => {
    const setup = typeof uri === "string" ? await describeTwoFactorSetup(uri) : null;
    return { setup: setup?.ok ? setup : undefined };
  };
  const checked = checkForm(form, accountTwoFactorSchema, ["intent"]);
  if (!checked.ok) {
    if (form.get("intent") !== "confirm") return checked.refusal;
    const extra = await setupAgain(form.get("uri"));
    return checked.refuse(400, { fieldErrors: checked.fieldErrors }, { extra });
  }
  const { refuse } = checked;
  const input = checked.data;
  switch (input.intent) {
    case "enable": {
      const setup = await startTwoFactorSetup(request, input.password);
      if (!setup.ok) return refuse(400, { fieldErrors: { password: setup.error } });
      return data({ setup });
    }
    case "confirm": {
      const confirmed = await confirmTwoFactorSetup(request, user, input.code);
      if (!confirmed.ok) {
        const extra = await setupAgain(input.uri);
        return refuse(400, { fieldErrors: { code: confirmed.error } }, { extra });
      }
      // A redirect, not data: this request's session was replaced, so its loaders would fail.
      throw redirect("/account", { headers: confirmed.headers });
    }
    case "disable": {
      const done = await turnOffTwoFactor(request, input.password);
      if (!done.ok) return refuse(400, { fieldErrors: { password: done.error } });
      throw redirect("/account", { headers: done.headers });
    }
    case "new-recovery-codes": {
      const done = await replaceRecoveryCodes(request, input.password);
      if (!done.ok) return refuse(400, { fieldErrors: { password: done.error } });
      return data({ recoveryCodes: done.recoveryCodes });
    }
  }
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const form = useCheckedForm(accountTwoFactorSchema, actionData);
  const { twoFactorEnabled } = loaderData;
  const recoveryCodes =
    (actionData && "recoveryCodes" in actionData ? actionData.recoveryCodes : undefined) ??
    loaderData.recoveryCodes;
  return (
    <PageShell title="Account">
      <p className="text-slate-600">Signed in as {loaderData.email}</p>
      <TwoFactorSettings
        enabled={twoFactorEnabled}
        recoveryCodes={recoveryCodes}
        setup={actionData && "setup" in actionData ? actionData.setup : undefined}
        answer={actionData}
        {...form}
      />
    </PageShell>
  );
}
