import { data, redirect } from "react-router";
import { useCheckedForm } from "~/components/auth/checked-form";
import { TwoFactorSettings } from "~/components/members/two-factor-settings";
import { PageShell } from "~/components/ui";
import { parseForm } from "~/lib/forms";
import { accountTwoFactorSchema } from "~/lib/two-factor-forms";
import { requireMember } from "~/server/auth/guards.server";
import {
  confirmTwoFactorSetup,
  describeTwoFactorSetup,
  replaceRecoveryCodes,
  startTwoFactorSetup,
  type TwoFactorSetup,
  takeRecoveryCodesToShow,
  turnOffTwoFactor,
} from "~/server/auth/two-factor.server";
import { readForm } from "~/server/forms.server";
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

type ActionData = {
  intent: string;
  fieldErrors: Record<string, string>;
  formError: string | null;
  setup?: Omit<TwoFactorSetup, "ok">;
  recoveryCodes?: string[];
};

export async function action({ request }: Route.ActionArgs) {
  const user = await requireMember(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const reply = (body: Partial<Omit<ActionData, "intent">>, init?: number | ResponseInit) =>
    data<ActionData>({ intent, fieldErrors: {}, formError: null, ...body }, init);
  // A refused code shows the same QR code and key again.
  const setupAgain = async (uri: string) => {
    const setup = await describeTwoFactorSetup(uri);
    return setup.ok ? setup : undefined;
  };
  const parsed = parseForm(accountTwoFactorSchema, form);
  if (!parsed.ok) {
    const setup = intent === "confirm" ? await setupAgain(String(form.get("uri"))) : undefined;
    return reply({ fieldErrors: parsed.fieldErrors, setup }, 400);
  }
  const input = parsed.data;
  switch (input.intent) {
    case "enable": {
      const setup = await startTwoFactorSetup(request, input.password);
      if (!setup.ok) return reply({ fieldErrors: { password: setup.error } }, 400);
      return reply({ setup });
    }
    case "confirm": {
      const confirmed = await confirmTwoFactorSetup(request, user, input.code);
      if (!confirmed.ok) {
        const setup = await setupAgain(input.uri);
        return reply({ fieldErrors: { code: confirmed.error }, setup }, 400);
      }
      // A redirect, not data: this request's session was replaced, so its loaders would fail.
      throw redirect("/account", { headers: confirmed.headers });
    }
    case "disable": {
      const done = await turnOffTwoFactor(request, input.password);
      if (!done.ok) return reply({ fieldErrors: { password: done.error } }, 400);
      throw redirect("/account", { headers: done.headers });
    }
    case "new-recovery-codes": {
      const done = await replaceRecoveryCodes(request, input.password);
      if (!done.ok) return reply({ fieldErrors: { password: done.error } }, 400);
      return reply({ recoveryCodes: done.recoveryCodes });
    }
  }
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const form = useCheckedForm(accountTwoFactorSchema, actionData);
  const { twoFactorEnabled } = loaderData;
  const recoveryCodes = actionData?.recoveryCodes ?? loaderData.recoveryCodes;
  return (
    <PageShell title="Account">
      <p className="text-slate-600">Signed in as {loaderData.email}</p>
      <TwoFactorSettings
        enabled={twoFactorEnabled}
        recoveryCodes={recoveryCodes}
        setup={actionData?.setup}
        formError={actionData?.formError}
        {...form}
      />
    </PageShell>
  );
}
