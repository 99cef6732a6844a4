import { data, Form, redirect, useNavigation } from "react-router";
import { RecoveryCodes } from "~/components/recovery-codes";
import { ErrorBox, PageShell, primaryButton, TextField } from "~/components/ui";
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
  const reply = (body: Omit<ActionData, "intent">, init?: number | ResponseInit) =>
    data<ActionData>({ intent, ...body }, init);
  const parsed = parseForm(accountTwoFactorSchema, form);
  if (!parsed.ok) {
    // A malformed code: show the same QR code and key again.
    const setup =
      intent === "confirm" ? await describeTwoFactorSetup(String(form.get("uri"))) : null;
    return reply(
      { fieldErrors: parsed.fieldErrors, formError: null, setup: setup?.ok ? setup : undefined },
      400,
    );
  }
  const input = parsed.data;
  switch (input.intent) {
    case "enable": {
      const setup = await startTwoFactorSetup(request, input.password);
      if (!setup.ok) return reply({ fieldErrors: { password: setup.error }, formError: null }, 400);
      return reply({ fieldErrors: {}, formError: null, setup });
    }
    case "confirm": {
      const confirmed = await confirmTwoFactorSetup(request, user, input.code);
      if (!confirmed.ok) {
        const setup = await describeTwoFactorSetup(input.uri);
        return reply(
          {
            fieldErrors: { code: confirmed.error },
            formError: null,
            setup: setup.ok ? setup : undefined,
          },
          400,
        );
      }
      // A redirect, not data: this request's session was replaced, so its loaders would fail.
      throw redirect("/account", { headers: confirmed.headers });
    }
    case "disable": {
      const done = await turnOffTwoFactor(request, input.password);
      if (!done.ok) return reply({ fieldErrors: { password: done.error }, formError: null }, 400);
      throw redirect("/account", { headers: done.headers });
    }
    case "new-recovery-codes": {
      const done = await replaceRecoveryCodes(request, input.password);
      if (!done.ok) return reply({ fieldErrors: { password: done.error }, formError: null }, 400);
      return reply({ fieldErrors: {}, formError: null, recoveryCodes: done.recoveryCodes });
    }
  }
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const errors = actionData?.fieldErrors ?? {};
  const { twoFactorEnabled } = loaderData;
  const recoveryCodes = actionData?.recoveryCodes ?? loaderData.recoveryCodes;
  return (
    <PageShell title="Account">
      <p className="text-slate-600">Signed in as {loaderData.email}</p>
      <section
        aria-labelledby="two-factor-heading"
        className="mt-8 max-w-xl rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
      >
        <h2 id="two-factor-heading" className="text-xl font-semibold">
          Two-factor authentication
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Status:{" "}
          <strong className={twoFactorEnabled ? "text-green-700" : "text-slate-900"}>
            {twoFactorEnabled ? "On" : "Off"}
          </strong>
        </p>
        <div className="mt-4 space-y-4">
          {actionData?.formError ? <ErrorBox>{actionData.formError}</ErrorBox> : null}
          {recoveryCodes ? (
            <RecoveryCodes codes={recoveryCodes} />
          ) : actionData?.setup && !twoFactorEnabled ? (
            <SetupStep setup={actionData.setup} error={errors.code} busy={busy} />
          ) : twoFactorEnabled ? (
            <Form method="post" className="space-y-4">
              <p className="text-sm text-slate-700">
                Signing in asks for a code from your authenticator app after your password.
              </p>
              <TextField
                label="Password"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                error={errors.password}
              />
              <div className="flex flex-col gap-3 sm:flex-row">
                <button
                  type="submit"
                  name="intent"
                  value="new-recovery-codes"
                  className={secondaryButton}
                  disabled={busy}
                >
                  New recovery codes
                </button>
                <button
                  type="submit"
                  name="intent"
                  value="disable"
                  className={dangerButton}
                  disabled={busy}
                >
                  Turn off two-factor authentication
                </button>
              </div>
            </Form>
          ) : (
            <Form method="post" className="space-y-4">
              <p className="text-sm text-slate-700">
                Add a second step to signing in: a 6-digit code from an authenticator app on your
                phone (Google Authenticator, 1Password, Authy and others). Enter your password to
                start.
              </p>
              <input type="hidden" name="intent" value="enable" />
              <TextField
                label="Password"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                error={errors.password}
              />
              <button type="submit" className={primaryButton} disabled={busy}>
                Set up two-factor authentication
              </button>
            </Form>
          )}
        </div>
      </section>
    </PageShell>
  );
}

function SetupStep({
  setup,
  error,
  busy,
}: {
  setup: Omit<TwoFactorSetup, "ok">;
  error: string | undefined;
  busy: boolean;
}) {
  return (
    <Form method="post" className="space-y-4">
      <ol className="list-decimal space-y-4 pl-5 text-sm text-slate-700">
        <li>
          Scan this QR code with your authenticator app.
          <img
            src={setup.qrCode}
            alt="QR code for your authenticator app"
            width={192}
            height={192}
            className="mt-2 h-48 w-48 rounded-md border border-slate-200 bg-white"
          />
        </li>
        <li>
          Or type in this setup key:{" "}
          <code
            data-testid="totp-secret"
            className="mt-1 block break-all rounded bg-slate-100 px-2 py-1 font-mono text-base text-slate-900"
          >
            {setup.secret}
          </code>
        </li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <input type="hidden" name="intent" value="confirm" />
      <input type="hidden" name="uri" value={setup.uri} />
      <TextField
        label="Authentication code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9 ]*"
        maxLength={7}
        required
        error={error}
      />
      <button type="submit" className={primaryButton} disabled={busy}>
        Confirm and turn on
      </button>
    </Form>
  );
}

const secondaryButton =
  "inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-4 py-2.5 font-semibold text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-60";
const dangerButton =
  "inline-flex items-center justify-center rounded-md bg-red-600 px-4 py-2.5 font-semibold text-white hover:bg-red-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-500 focus-visible:ring-offset-2 disabled:opacity-60";
