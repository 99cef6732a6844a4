import { data, Form, Link, redirect, useNavigation } from "react-router";
import { AdminPageErrorBoundary } from "~/components/admin/confirm-its-you";
import {
  Cell,
  ConsoleHeading,
  formatAmount,
  formatWhen,
  secondaryButton,
  TableSection,
} from "~/components/admin/console";
import { FormError, fieldErrorsOf, Notice } from "~/components/form-answer";
import { TextField } from "~/components/ui";
import {
  type MemberAction,
  memberActionSchema,
  memberActions,
  refundFormSchema,
} from "~/lib/admin-forms";
import { adminActor } from "~/server/admin/audit.server";
import { applyMemberAction } from "~/server/admin/member-actions.server";
import { findMember } from "~/server/admin/members.server";
import { refundPurchase, whyNotRefundable } from "~/server/admin/refunds.server";
import { requireAdmin, requireRecentProof } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import { getEnv } from "~/server/env.server";
import {
  checkForm,
  firstError,
  readForm,
  redirectWithNotice,
  takeNotice,
} from "~/server/forms.server";
import { productName } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/member";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.member.account.name ?? "Member"} | AI Labs` },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const member = await findMember(await getDb(), params.userId);
  if (!member) throw redirect("/admin/members");
  const asked = new URL(request.url).searchParams.get("confirm");
  const confirm = memberActions.find((a) => a === asked) ?? null;
  const { notice, headers } = takeNotice(request);
  const { stripe } = getEnv();
  // Each purchase's product by the name the owner gave it, and whether it can be refunded here.
  const purchases = member.purchases.map((p) => ({
    ...p,
    productName: productName(p.product),
    refundable: whyNotRefundable(p, stripe) === undefined,
  }));
  return data(
    { member: { ...member, purchases }, confirm, refund: refundAsked(purchases, asked), notice },
    { headers },
  );
}

/** The purchase `?confirm=refund-<id>` asks to refund, if it can be. */
function refundAsked<P extends { id: string; refundable: boolean }>(
  purchases: P[],
  asked: string | null,
) {
  const id = asked?.startsWith("refund-") ? asked.slice("refund-".length) : null;
  return purchases.find((p) => p.id === id && p.refundable) ?? null;
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  // Roles, access and refunds, signing out and password links: only with a recent proof.
  await requireRecentProof(request, admin, form);
  if (form.get("intent") === "refund") return refundFromForm(form, admin, params.userId);
  const checked = checkForm(form, memberActionSchema);
  if (!checked.ok) return checked.refuse(400, firstError(checked.fieldErrors));
  const result = await applyMemberAction(
    await getDb(),
    adminActor(admin),
    params.userId,
    checked.data.intent,
  );
  if (!result) return checked.refuse(404, { formError: "No such account" });
  if (!result.ok) return checked.refuse(409, { formError: result.error });
  // Back to the page without its ?confirm=, saying what was done.
  return redirectWithNotice(`/admin/members/${encodeURIComponent(params.userId)}`, result.message);
}

/** Pays back some or all of one of the member's purchases (refunds.server.ts). */
async function refundFromForm(
  form: FormData,
  admin: { id: string; email: string },
  userId: string,
) {
  const checked = checkForm(form, refundFormSchema, ["amount"]);
  if (!checked.ok) return checked.refuse(400, firstError(checked.fieldErrors));
  const result = await refundPurchase(
    await getDb(),
    adminActor(admin),
    {
      userId,
      purchaseId: checked.data.purchaseId,
      amountCents: checked.data.amount,
      refundedBefore: checked.data.refundedBefore,
    },
    getEnv().stripe,
  );
  if (!result) return checked.refuse(404, { formError: "No such purchase" });
  if (!result.ok) return checked.refuse(409, { formError: result.error });
  return redirectWithNotice(`/admin/members/${encodeURIComponent(userId)}`, result.message);
}

/** "Confirm it's you" when the last proof is too old; other errors as everywhere. */
export const ErrorBoundary = AdminPageErrorBoundary;

const actionCopy: Record<MemberAction, { label: string; question: string }> = {
  grant: {
    label: "Grant access",
    question: "Give this person Lifetime Access (a manual purchase of $0)?",
  },
  revoke: {
    label: "Revoke access",
    question:
      "End this person's access? Every purchase that gives it stops giving it, from their next request. Nothing is refunded: use Refund on a purchase below if money is owed.",
  },
  "make-admin": {
    label: "Make admin",
    question: "Make this person an admin? They can then edit courses and use this console.",
  },
  "remove-admin": { label: "Remove admin", question: "Take the admin role away from this person?" },
  "sign-out": {
    label: "Sign out everywhere",
    question: "End every session of this person? They must sign in again on every device.",
  },
  "password-link": {
    label: "Send a password link",
    question: "E-mail this person a link to choose a new password (valid 1 hour)?",
  },
  "clear-undeliverable": {
    label: "Send marketing e-mail again",
    question:
      "Their mail server refused our e-mail for good, so broadcasts skip this address. Send to it again (for example, after they fixed their mailbox)?",
  },
};

export default function Member({ loaderData, actionData }: Route.ComponentProps) {
  const { member, confirm, refund, notice } = loaderData;
  const { account, access, marketing, purchases, progress, sessions } = member;
  const busy = useNavigation().state === "submitting";
  const offered: MemberAction[] = [
    access === "member" || (access === "admin" && purchases.some((p) => p.status === "completed"))
      ? "revoke"
      : "grant",
    account.isAdmin ? "remove-admin" : "make-admin",
    "sign-out",
    "password-link",
    ...(marketing.undeliverableAt ? (["clear-undeliverable"] as const) : []),
  ];
  return (
    <main>
      <p className="mt-6 text-sm">
        <Link to="/admin/members" className="text-indigo-700 hover:underline">
          ← All members
        </Link>
      </p>
      <ConsoleHeading title={account.name}>
        {account.email} · joined {formatWhen(account.createdAt)} · access: <strong>{access}</strong>{" "}
        · two-factor {account.twoFactorEnabled ? "on" : "off"}
        {account.emailVerified ? "" : " · address not proved"}
      </ConsoleHeading>
      <p className="mt-2 text-sm text-slate-700">
        Marketing e-mail:{" "}
        {marketing.undeliverableAt ? (
          <strong className="text-amber-800">
            undeliverable since {formatWhen(marketing.undeliverableAt)}
            {marketing.undeliverableReason ? ` (${marketing.undeliverableReason})` : ""}
          </strong>
        ) : marketing.unsubscribedAt ? (
          `unsubscribed ${formatWhen(marketing.unsubscribedAt)}`
        ) : (
          "subscribed"
        )}
      </p>
      <Notice notice={notice} />
      <div className="mt-4 empty:hidden">
        <FormError answer={actionData} />
      </div>
      <section aria-labelledby="actions-heading" className="mt-6">
        <h2 id="actions-heading" className="text-xl font-semibold">
          Actions
        </h2>
        {confirm && !actionData ? (
          <div
            role="alertdialog"
            aria-labelledby="confirm-question"
            className="mt-3 rounded-lg border border-indigo-200 bg-indigo-50 p-4"
          >
            <p id="confirm-question" className="font-medium">
              {actionCopy[confirm].question}
            </p>
            <Form method="post" className="mt-3 flex flex-wrap gap-2">
              <input type="hidden" name="intent" value={confirm} />
              <button
                type="submit"
                name="confirm"
                value="yes"
                // biome-ignore lint/a11y/noAutofocus: the confirmation is what the admin just asked for
                autoFocus
                disabled={busy}
                className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 disabled:opacity-60"
              >
                {busy ? "Working…" : `Yes, ${actionCopy[confirm].label.toLowerCase()}`}
              </button>
              <Link to="." replace className={secondaryButton}>
                Cancel
              </Link>
            </Form>
          </div>
        ) : (
          <ul className="mt-3 flex flex-wrap gap-2">
            {offered.map((intent) => (
              <li key={intent}>
                <Link to={`?confirm=${intent}`} replace className={secondaryButton}>
                  {actionCopy[intent].label}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      {refund ? <RefundForm purchase={refund} answer={actionData} busy={busy} /> : null}
      <TableSection
        id="purchases"
        title="Purchases"
        head={["Order", "Product", "Provider", "Amount", "Status", "Bought", "Refunded", "Refund"]}
        rows={purchases}
        empty="No purchases."
        row={(p) => (
          <tr key={p.id}>
            <Cell>
              <Link
                to={`/account/receipts/${p.orderNumber}`}
                className="font-mono text-indigo-700 underline"
                aria-label={`Receipt for order ${p.orderNumber}`}
              >
                {p.orderNumber}
              </Link>
            </Cell>
            <Cell wrap>{p.productName}</Cell>
            <Cell>{p.provider}</Cell>
            <Cell>{formatAmount(p.amountCents, p.currency)}</Cell>
            <Cell>
              {p.status === "completed" && p.accessRevokedAt
                ? `completed, access revoked ${formatWhen(p.accessRevokedAt)}`
                : p.status}
            </Cell>
            <Cell>{formatWhen(p.createdAt)}</Cell>
            <Cell>
              {p.refundedCents > 0
                ? `${formatAmount(p.refundedCents, p.currency)}, ${formatWhen(p.lastRefundAt)}`
                : "—"}
            </Cell>
            <Cell>
              {p.refundable ? (
                <Link
                  to={`?confirm=refund-${p.id}#refund`}
                  replace
                  className="text-indigo-700 underline"
                  aria-label={`Refund order ${p.orderNumber}`}
                >
                  Refund
                </Link>
              ) : p.provider === "warriorplus" && p.status === "completed" ? (
                "On WarriorPlus"
              ) : (
                "—"
              )}
            </Cell>
          </tr>
        )}
      />
      <TableSection
        id="progress"
        title="Progress"
        caption="Progress in each course"
        head={["Course", "Chapters done", "Of"]}
        rows={progress}
        empty="No courses yet."
        row={(c) => (
          <tr key={c.courseId}>
            <Cell wrap>{c.title}</Cell>
            <Cell>{c.done}</Cell>
            <Cell>{c.chapters}</Cell>
          </tr>
        )}
      />
      <TableSection
        id="sessions"
        title="Sessions"
        head={["Started", "Last active", "Expires", "Address", "Browser"]}
        rows={sessions}
        empty="Not signed in anywhere."
        row={(s) => (
          <tr key={s.id}>
            <Cell>{formatWhen(s.createdAt)}</Cell>
            <Cell>{formatWhen(s.updatedAt)}</Cell>
            <Cell>{formatWhen(s.expiresAt)}</Cell>
            <Cell>{s.ipAddress ?? "—"}</Cell>
            <Cell wrap>{s.userAgent ?? "—"}</Cell>
          </tr>
        )}
      />
    </main>
  );
}

type RefundTarget = {
  id: string;
  orderNumber: string;
  productName: string;
  provider: string;
  amountCents: number;
  refundedCents: number;
  currency: string;
};

/** How much of one purchase to pay back, confirmed: Stripe's card, or the test checkout's record. */
function RefundForm({
  purchase: p,
  answer,
  busy,
}: {
  purchase: RefundTarget;
  answer: unknown;
  busy: boolean;
}) {
  const left = p.amountCents - p.refundedCents;
  const typed = (answer as { values?: Record<string, string> } | undefined)?.values?.amount;
  return (
    <section
      id="refund"
      role="alertdialog"
      aria-labelledby="refund-heading"
      className="mt-6 rounded-lg border border-indigo-200 bg-indigo-50 p-4"
    >
      <h2 id="refund-heading" className="text-lg font-semibold">
        Refund order {p.orderNumber}
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {p.productName}: paid {formatAmount(p.amountCents, p.currency)}
        {p.provider === "stripe" ? " with Stripe" : " at the test checkout"}
        {p.refundedCents > 0
          ? `, ${formatAmount(p.refundedCents, p.currency)} refunded so far`
          : ""}
        .{" "}
        {p.provider === "stripe"
          ? "The money goes back to the buyer's card at Stripe. "
          : "The test checkout records the refund; no money moves. "}
        Refunding all that is left ({formatAmount(left, p.currency)}) ends the access this purchase
        gives; less keeps it.
      </p>
      <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="refund" />
        <input type="hidden" name="purchaseId" value={p.id} />
        <input type="hidden" name="refundedBefore" value={p.refundedCents} />
        <div className="w-48">
          <TextField
            label="Amount to refund"
            name="amount"
            inputMode="decimal"
            defaultValue={typed ?? (left / 100).toFixed(2)}
            error={fieldErrorsOf(answer).amount}
            hint={`In dollars, at most ${formatAmount(left, p.currency)}`}
            required
          />
        </div>
        <button
          type="submit"
          name="confirm"
          value="yes"
          disabled={busy}
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 disabled:opacity-60"
        >
          {busy ? "Refunding…" : "Yes, refund"}
        </button>
        <Link to="." replace className={secondaryButton}>
          Cancel
        </Link>
      </Form>
    </section>
  );
}
