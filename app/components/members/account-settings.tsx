import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { NewPasswordFields } from "~/components/auth/fields";
import { dangerButton, ErrorBox, primaryButton, secondaryButton, TextField } from "~/components/ui";
import { adminAccountKept } from "~/lib/account-forms";
import { fileSize } from "~/lib/file-size";
import type { FieldErrors } from "~/lib/forms";
import { passwordMaxLength } from "~/lib/password-rule";

// The sections of /account: the name, the password, what the member bought
// with a receipt for each; after two-factor, their data to download and
// deleting the account.

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

/** The name receipts and greetings use. */
export function NameForm({ name, errors, sending, onSubmit }: FormProps & { name: string }) {
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
        <button type="submit" className={primaryButton} disabled={sending !== null}>
          {busy ? "Saving…" : "Save name"}
        </button>
      </Form>
    </AccountSection>
  );
}

/** A new address, confirmed by a link sent to it; the current one signs in until then. */
export function EmailForm({ email, errors, sending, onSubmit }: FormProps & { email: string }) {
  const busy = sending === "change-email";
  return (
    <AccountSection id="email" title="E-mail address">
      <Form method="post" className="space-y-4" onSubmit={onSubmit}>
        <input type="hidden" name="intent" value="change-email" />
        <p className="text-sm text-slate-700">
          You sign in with <strong className="break-all text-slate-900">{email}</strong>. A new
          address is used once you open the link we send to it.
        </p>
        <TextField
          label="New e-mail address"
          name="newEmail"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          error={errors.newEmail}
        />
        <TextField
          label="Your password"
          name="emailPassword"
          type="password"
          autoComplete="current-password"
          required
          maxLength={passwordMaxLength}
          error={errors.emailPassword}
        />
        <button type="submit" className={primaryButton} disabled={sending !== null}>
          {busy ? "Sending link…" : "Send confirmation link"}
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

/** The files of each product the member holds, to download (none: no section). */
export function ProductDownloads({
  groups,
}: {
  groups: {
    product: string;
    name: string;
    files: { id: string; name: string; sizeBytes: number }[];
  }[];
}) {
  if (groups.length === 0) return null;
  return (
    <AccountSection id="downloads" title="My downloads">
      {groups.map((group) => (
        <div key={group.product} className="mt-4 first:mt-0">
          <h3 className="font-semibold text-slate-900">{group.name}</h3>
          <ul className="mt-1 space-y-1">
            {group.files.map((file) => (
              <li key={file.id} className="flex flex-wrap items-center gap-x-2">
                <a
                  href={`/files/${file.id}`}
                  download
                  className="inline-flex min-h-11 min-w-0 items-center break-all text-indigo-700 underline"
                >
                  {file.name}
                </a>
                <span className="text-sm whitespace-nowrap text-slate-500">
                  {fileSize(file.sizeBytes)}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </AccountSection>
  );
}

/** What the account holds, as a file to keep: a plain link, which the browser downloads. */
export function YourData() {
  return (
    <AccountSection id="your-data" title="Your data">
      <p className="text-sm text-slate-700">
        Download everything your account holds as one file (JSON): your name and e-mail address,
        your purchases with their order numbers, your progress in the courses and the ideas you
        saved.
      </p>
      <a href="/account/data" download className={`${secondaryButton} mt-4`}>
        Download my data
      </a>
    </AccountSection>
  );
}

/** The password and a ticked box delete the account; an admin is told why not instead. */
export function DeleteAccountForm({
  isAdmin,
  errors,
  sending,
  onSubmit,
}: FormProps & { isAdmin: boolean }) {
  const busy = sending === "delete-account";
  const confirmError = errors.confirm;
  return (
    <AccountSection id="delete-account" title="Delete account">
      <p className="text-sm text-slate-700">
        Deleting your account signs you out everywhere and removes your name, e-mail address,
        password, progress and saved ideas. Your purchase records stay, without your name or
        address, because the seller must keep them for tax and accounting (see the{" "}
        <Link to="/privacy-policy" className="text-indigo-700 underline">
          privacy policy
        </Link>
        ).
      </p>
      {isAdmin ? (
        <p className="mt-4 text-sm font-medium text-slate-900">{adminAccountKept}</p>
      ) : (
        <Form method="post" className="mt-4 space-y-4" onSubmit={onSubmit}>
          <input type="hidden" name="intent" value="delete-account" />
          {errors.deleteAccount ? <ErrorBox>{errors.deleteAccount}</ErrorBox> : null}
          <TextField
            label="Your password"
            name="deletePassword"
            type="password"
            autoComplete="current-password"
            required
            maxLength={passwordMaxLength}
            error={errors.deletePassword}
          />
          <div>
            <label className="flex items-start gap-3 text-sm text-slate-800">
              <input
                type="checkbox"
                name="confirm"
                required
                aria-invalid={confirmError ? true : undefined}
                aria-describedby={confirmError ? "field-confirm-error" : undefined}
                className="mt-0.5 h-5 w-5 shrink-0 accent-red-600"
              />
              I understand this cannot be undone
            </label>
            {confirmError ? (
              <p id="field-confirm-error" className="mt-1 text-sm text-red-700">
                {confirmError}
              </p>
            ) : null}
          </div>
          <button type="submit" className={dangerButton} disabled={sending !== null}>
            {busy ? "Deleting account…" : "Delete my account"}
          </button>
        </Form>
      )}
    </AccountSection>
  );
}
