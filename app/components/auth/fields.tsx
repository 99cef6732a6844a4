import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { primaryButton, TextField } from "~/components/ui";
import { passwordMaxLength, passwordMinLength, passwordRuleHint } from "~/lib/password-rule";
import { FormError, fieldErrorsOf } from "../form-answer";

// The fields and pieces the sign-in, sign-up, password and account pages share.

/**
 * A public page's form (sign-in, sign-up, password reset), checked in the
 * browser by its fields' own constraints (required, type, minlength,
 * maxlength, from the same constants as the schema) and by its action with
 * the schema: whether it is being sent, and the field errors of the last
 * answer. The schema is not shipped to these pages (docs/decisions/024).
 */
export function useAnsweredForm(actionData: unknown) {
  return {
    busy: useNavigation().state === "submitting",
    errors: fieldErrorsOf(actionData),
  };
}

/** A page's form, with the error the last answer (`answer`, the action's data) gave for it as a whole. */
export function AuthForm({
  answer,
  onSubmit,
  children,
}: {
  answer: unknown;
  onSubmit?: (event: React.FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  return (
    <Form method="post" className="space-y-4" onSubmit={onSubmit}>
      <FormError answer={answer} />
      {children}
    </Form>
  );
}

/** The form's button, saying what is happening while the form is sent. */
export function SubmitButton({
  busy,
  busyLabel,
  children,
}: {
  busy: boolean;
  busyLabel: string;
  children: ReactNode;
}) {
  return (
    <button type="submit" className={primaryButton} disabled={busy}>
      {busy ? busyLabel : children}
    </button>
  );
}

export function EmailField({ defaultValue, error }: { defaultValue?: string; error?: string }) {
  return (
    <TextField
      label="Email address"
      name="email"
      type="email"
      autoComplete="email"
      required
      defaultValue={defaultValue}
      error={error}
    />
  );
}

/** The password of a signed-up account, to sign in with. */
export function CurrentPasswordField({ error }: { error?: string }) {
  return (
    <TextField
      label="Password"
      name="password"
      type="password"
      autoComplete="current-password"
      required
      maxLength={passwordMaxLength}
      error={error}
    />
  );
}

/** A 6-digit code from an authenticator app (typed with or without a space). */
export function TotpCodeField({ error, autoFocus }: { error?: string; autoFocus?: boolean }) {
  return (
    <TextField
      label="Authentication code"
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9 ]*"
      maxLength={7}
      required
      autoFocus={autoFocus}
      error={error}
    />
  );
}

/** A password being chosen, with the password rule under it (after the last field). */
export function NewPasswordFields({
  fields,
  errors,
}: {
  fields: { label: string; name: string }[];
  errors: Record<string, string>;
}) {
  return (
    <>
      {fields.map(({ label, name }) => (
        <TextField
          key={name}
          label={label}
          name={name}
          type="password"
          autoComplete="new-password"
          required
          minLength={passwordMinLength}
          maxLength={passwordMaxLength}
          error={errors[name]}
        />
      ))}
      <p className="text-xs text-slate-500">{passwordRuleHint}</p>
    </>
  );
}

/** A message that something worked (a reset link sent, a password changed). */
export function StatusBox({ children }: { children: ReactNode }) {
  return (
    <p
      role="status"
      className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-800"
    >
      {children}
    </p>
  );
}

/** The links under an auth form: where else to go, and a way back. */
export function AuthLinks({ links }: { links: { to: string; label: string; muted?: boolean }[] }) {
  return (
    <div className="mt-6 flex flex-wrap justify-between gap-x-4 gap-y-2 text-sm">
      {links.map(({ to, label, muted }) => (
        <Link
          key={to}
          to={to}
          className={muted ? "text-slate-600 underline" : "text-indigo-700 underline"}
        >
          {label}
        </Link>
      ))}
    </div>
  );
}
