import type { ReactNode } from "react";
import { Form } from "react-router";
import { CurrentPasswordField, TotpCodeField } from "~/components/auth/fields";
import { RecoveryCodes } from "~/components/recovery-codes";
import { dangerButton, primaryButton, secondaryButton } from "~/components/ui";
import { useCopy } from "~/components/use-copy";
import type { FieldErrors } from "~/lib/forms";
import { FormError } from "../form-answer";

// The two-factor forms of /account: turn it on (password, then the code), or,
// once on, get new recovery codes or turn it off.

export type SetupShown = { secret: string; uri: string; qrCode: string };

type FormProps = {
  errors: FieldErrors;
  busy: boolean;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
};

/** The two-factor section: its status, and the form for the step the member is at. */
export function TwoFactorSettings({
  enabled,
  recoveryCodes,
  setup,
  answer,
  ...form
}: FormProps & {
  enabled: boolean;
  recoveryCodes: string[] | null;
  setup: SetupShown | undefined;
  /** The action's last answer: its error about the form as a whole is shown. */
  answer: unknown;
}) {
  return (
    <section
      aria-labelledby="two-factor-heading"
      className="mt-8 max-w-xl rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="two-factor-heading" className="text-xl font-semibold">
        Two-factor authentication
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Status:{" "}
        <strong className={enabled ? "text-green-700" : "text-slate-900"}>
          {enabled ? "On" : "Off"}
        </strong>
      </p>
      <div className="mt-4 space-y-4">
        <FormError answer={answer} />
        {recoveryCodes ? (
          <RecoveryCodes codes={recoveryCodes} />
        ) : setup && !enabled ? (
          <SetupStep setup={setup} {...form} />
        ) : enabled ? (
          <TwoFactorOnForm {...form} />
        ) : (
          <TwoFactorOffForm {...form} />
        )}
      </div>
    </section>
  );
}

/** A form that asks for the password: what it is for, the field, then its buttons. */
function PasswordForm({
  intro,
  errors,
  onSubmit,
  children,
}: Omit<FormProps, "busy"> & { intro: ReactNode; children: ReactNode }) {
  return (
    <Form method="post" className="space-y-4" onSubmit={onSubmit}>
      <p className="text-sm text-slate-700">{intro}</p>
      <CurrentPasswordField error={errors.password} />
      {children}
    </Form>
  );
}

/** A submit button that tells the action what to do. */
function IntentButton({
  intent,
  className,
  busy,
  children,
}: {
  intent: string;
  className: string;
  busy: boolean;
  children: ReactNode;
}) {
  return (
    <button type="submit" name="intent" value={intent} className={className} disabled={busy}>
      {children}
    </button>
  );
}

/** Two-factor is on: new recovery codes, or turn it off; both ask for the password. */
function TwoFactorOnForm({ busy, ...form }: FormProps) {
  return (
    <PasswordForm
      intro="Signing in asks for a code from your authenticator app after your password."
      {...form}
    >
      <div className="flex flex-col gap-3 sm:flex-row">
        <IntentButton intent="new-recovery-codes" className={secondaryButton} busy={busy}>
          New recovery codes
        </IntentButton>
        <IntentButton intent="disable" className={dangerButton} busy={busy}>
          Turn off two-factor authentication
        </IntentButton>
      </div>
    </PasswordForm>
  );
}

/** Two-factor is off: the password starts the setup. */
function TwoFactorOffForm({ busy, ...form }: FormProps) {
  return (
    <PasswordForm
      intro="Add a second step to signing in: a 6-digit code from an authenticator app on your phone (Google Authenticator, 1Password, Authy and others). Enter your password to start."
      {...form}
    >
      <input type="hidden" name="intent" value="enable" />
      <button type="submit" className={primaryButton} disabled={busy}>
        Set up two-factor authentication
      </button>
    </PasswordForm>
  );
}

/** The QR code and key to add to an authenticator app, and the code that confirms it. */
function SetupStep({ setup, errors, busy, onSubmit }: FormProps & { setup: SetupShown }) {
  return (
    <Form method="post" className="space-y-4" onSubmit={onSubmit}>
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
          Or type in this setup key:
          <SetupKey secret={setup.secret} />
        </li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <input type="hidden" name="intent" value="confirm" />
      <input type="hidden" name="uri" value={setup.uri} />
      <TotpCodeField error={errors.code} />
      <button type="submit" className={primaryButton} disabled={busy}>
        Confirm and turn on
      </button>
    </Form>
  );
}

/** The key in groups of four, easier to read and type; copying takes it without spaces. */
export function keyGroups(secret: string): string[] {
  return secret.match(/.{1,4}/g) ?? [];
}

/** The setup key, grouped by four, with a Copy button (Copied! for 2 seconds). */
function SetupKey({ secret }: { secret: string }) {
  const { copied, copy } = useCopy(secret);
  return (
    <div className="mt-1 flex flex-wrap items-center gap-3">
      {/* Groups are spans without spaces between them: selecting and copying gives the key. */}
      <code
        data-testid="totp-secret"
        data-secret={secret}
        className="flex flex-wrap gap-x-3 gap-y-1 rounded bg-slate-100 px-3 py-2 font-mono text-base tracking-wider text-slate-900"
      >
        {keyGroups(secret).map((group, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: groups of a fixed key, never reordered
          <span key={i}>{group}</span>
        ))}
      </code>
      <button
        type="button"
        onClick={copy}
        className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      >
        <span aria-live="polite">{copied ? "Copied!" : "Copy key"}</span>
      </button>
    </div>
  );
}
