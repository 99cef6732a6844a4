import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { NewPasswordFields } from "~/components/auth/fields";
import { primaryButton, TextField } from "~/components/ui";
import type { FieldErrors } from "~/lib/forms";
import { passwordMaxLength } from "~/lib/password-rule";

// The sections of /account above two-factor: the name, the password, and
// what the member bought with a receipt for each.

type FormProps = {
  errors: FieldErrors;
  /** Which of the page's forms is being sent, if any (its intent). */
  sending: string | null;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
};

/** A purchase as /account lists it (receipts.server.ts, MemberPurchase, dates as text). */
export type ListedPurchase = {
  orderNumber: string;
  product: string;
  amount: string;
  day: string;
  paidWith: string;
  status: "completed" | "refunded";
  refundedDay: string | null;
};

/** A titled card of the account page. */
export function AccountSection({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="mt-8 max-w-xl rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id={`${id}-heading`} className="text-xl font-semibold">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** The name receipts and greetings use; the e-mail shown beside it. */
export function NameForm({
  name,
  email,
  errors,
  sending,
  onSubmit,
}: FormProps & { name: string; email: string }) {
  const busy = sending === "change-name";
  return (
    <AccountSection id="details" title="Your details">
      <Form method="post" className="space-y-4" onSubmit={onSubmit}>
        <input type="hidden" name="intent" value="change-name" />
        <TextField
          label="Full name"
          name="name"
          autoComplete="name"
          required
          maxLength={100}
          defaultValue={name}
          error={errors.name}
        />
        <p className="text-sm text-slate-600">
          E-mail address: <strong className="break-all text-slate-900">{email}</strong>
        </p>
        <button type="submit" className={primaryButton} disabled={sending !== null}>
          {busy ? "Saving…" : "Save name"}
        </button>
      </Form>
    </AccountSection>
  );
}

/** The current password, then the new one twice; every other device is signed out. */
export function PasswordForm({ errors, sending, onSubmit }: FormProps) {
  const busy = sending === "change-password";
  return (
    <AccountSection id="password" title="Change password">
      <Form method="post" className="space-y-4" onSubmit={onSubmit}>
        <input type="hidden" name="intent" value="change-password" />
        <p className="text-sm text-slate-700">
          Changing your password signs you out on every other device.
        </p>
        <TextField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          maxLength={passwordMaxLength}
          error={errors.currentPassword}
        />
        <NewPasswordFields
          fields={[
            { label: "New password", name: "newPassword" },
            { label: "Confirm new password", name: "confirmPassword" },
          ]}
          errors={errors}
        />
        <button type="submit" className={primaryButton} disabled={sending !== null}>
          {busy ? "Changing password…" : "Change password"}
        </button>
      </Form>
    </AccountSection>
  );
}

const statusBadge = {
  completed: "bg-green-100 text-green-800",
  refunded: "bg-slate-200 text-slate-800",
} as const;

/** What the member bought, newest first, each with its printable receipt. */
export function PurchasesList({ purchases }: { purchases: ListedPurchase[] }) {
  return (
    <AccountSection id="purchases" title="My purchases">
      {purchases.length === 0 ? (
        <p className="text-sm text-slate-600">No purchases on this account.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {purchases.map((p) => (
            <li key={p.orderNumber} className="py-4 first:pt-0 last:pb-0">
              <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <h3 className="font-semibold text-slate-900">{p.product}</h3>
                <span className="font-semibold tabular-nums">{p.amount}</span>
              </div>
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm text-slate-700">
                <dt className="text-slate-500">Order</dt>
                <dd className="font-mono">{p.orderNumber}</dd>
                <dt className="text-slate-500">Date</dt>
                <dd>{p.day}</dd>
                <dt className="text-slate-500">Paid with</dt>
                <dd>{p.paidWith}</dd>
                <dt className="text-slate-500">Status</dt>
                <dd>
                  <span
                    className={`rounded-full px-2 py-0.5 text-xs font-semibold ${statusBadge[p.status]}`}
                  >
                    {p.status === "completed" ? "Paid" : `Refunded ${p.refundedDay ?? ""}`.trim()}
                  </span>
                </dd>
              </dl>
              <Link
                to={`/account/receipts/${p.orderNumber}`}
                className="mt-2 inline-flex min-h-11 items-center font-semibold text-indigo-700 underline"
                aria-label={`Receipt for order ${p.orderNumber}`}
              >
                Receipt
              </Link>
            </li>
          ))}
        </ul>
      )}
    </AccountSection>
  );
}
