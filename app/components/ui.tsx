import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";

const fieldControlClass =
  "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500 aria-invalid:border-red-500";

/** The ids of a field's hint and error, for its aria-describedby (undefined: neither). */
function describedByOf(id: string, hint?: string, error?: string): string | undefined {
  return [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].join(" ").trim() || undefined;
}

/** A field's hint and error under it, with the ids describedByOf names. */
function FieldNotes({ id, hint, error }: { id: string; hint?: string; error?: string }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </>
  );
}

export function TextField({
  label,
  name,
  id: givenId,
  error,
  hint,
  ...input
}: {
  label: string;
  name: string;
  /** The input's id, when several forms on a page have a field of this name. */
  id?: string;
  error?: string;
  /** A line under the field that says what to enter. */
  hint?: string;
} & InputHTMLAttributes<HTMLInputElement>) {
  const id = givenId ?? `field-${name}`;
  const describedBy = describedByOf(id, hint, error);
  return (
    <LabelledField id={id} label={label}>
      <input
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={fieldControlClass}
        {...input}
      />
      <FieldNotes id={id} hint={hint} error={error} />
    </LabelledField>
  );
}

/** TextField for several lines: a labelled text area with its hint and error. */
export function TextAreaField({
  label,
  name,
  id: givenId,
  error,
  hint,
  ...area
}: {
  label: string;
  name: string;
  /** The text area's id, when several forms on a page have a field of this name. */
  id?: string;
  error?: string;
  hint?: string;
} & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = givenId ?? `field-${name}`;
  const describedBy = describedByOf(id, hint, error);
  return (
    <LabelledField id={id} label={label}>
      <textarea
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={fieldControlClass}
        {...area}
      />
      <FieldNotes id={id} hint={hint} error={error} />
    </LabelledField>
  );
}

/** A field's label above the field itself (`children`, whose id is `id`). */
export function LabelledField({
  id,
  label,
  children,
}: {
  id: string;
  label: string;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
    </div>
  );
}

export function ErrorBox({ children }: { children: ReactNode }) {
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800"
    >
      {children}
    </div>
  );
}

export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  return (
    <main className="mx-auto flex max-w-md flex-col px-4 py-12">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold">{title}</h1>
        {subtitle ? <p className="mt-1 text-slate-600">{subtitle}</p> : null}
        <div className="mt-6">{children}</div>
      </div>
    </main>
  );
}

export const primaryButton =
  "inline-flex w-full items-center justify-center rounded-md bg-indigo-600 px-4 py-2.5 font-semibold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 disabled:opacity-60";

/** A button beside another (or a link that downloads), less prominent than primaryButton. */
export const secondaryButton =
  "inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-4 py-2.5 font-semibold text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-60";

/** A button that ends or removes something (two-factor, the account). */
export const dangerButton =
  "inline-flex items-center justify-center rounded-md bg-red-600 px-4 py-2.5 font-semibold text-white hover:bg-red-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-500 focus-visible:ring-offset-2 disabled:opacity-60";

/** A page frame: a title and its content. */
export function PageShell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <div className="mt-4">{children}</div>
    </main>
  );
}
