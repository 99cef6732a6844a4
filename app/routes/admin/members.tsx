import { data, Form, Link, useNavigation } from "react-router";
import { AdminPageErrorBoundary } from "~/components/admin/confirm-its-you";
import {
  Cell,
  ConsoleHeading,
  DataTable,
  EmptyState,
  fieldClass,
  formatWhen,
  Pager,
  secondaryButton,
} from "~/components/admin/console";
import { UnmatchedPayments } from "~/components/admin/unmatched-payments";
import { funnelProductKeys } from "~/config/site";
import {
  memberAccessFilters,
  membersPageSize,
  membersQuerySchema,
  paymentIssueActionSchema,
} from "~/lib/admin-forms";
import { adminActor } from "~/server/admin/audit.server";
import { consoleRequest } from "~/server/admin/console.server";
import { listMembers } from "~/server/admin/members.server";
import {
  attachPayment,
  dismissPayment,
  likelyProduct,
  unmatchedPayments,
} from "~/server/admin/unmatched-payments.server";
import { requireAdmin, requireRecentProof } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import {
  checkForm,
  firstError,
  readForm,
  redirectWithNotice,
  takeNotice,
} from "~/server/forms.server";
import { currentOfferSettings, productName } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/members";

export async function loader({ request }: Route.LoaderArgs) {
  const { query, db } = await consoleRequest(request, membersQuerySchema);
  const [members, unmatched] = await Promise.all([listMembers(db, query), unmatchedPayments(db)]);
  // Each payment with the product it most likely paid for, which its form offers first.
  const offer = currentOfferSettings();
  const payments = unmatched.map((p) => ({ ...p, likelyProduct: likelyProduct(offer, p) }));
  const products = funnelProductKeys.map((key) => ({ key, name: productName(key) }));
  const { notice, headers } = takeNotice(request);
  return data({ ...members, payments, products, query, notice }, { headers });
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  // Attaching a payment grants access: only with a recent proof.
  await requireRecentProof(request, admin, form);
  const checked = checkForm(form, paymentIssueActionSchema, ["email", "product", "providerRef"]);
  if (!checked.ok) return checked.refuse(400, firstError(checked.fieldErrors));
  const db = await getDb();
  const { intent, provider, providerRef, email, product, anyway } = checked.data;
  const payment = { provider, providerRef };
  let result: Awaited<ReturnType<typeof attachPayment>>;
  if (intent === "dismiss") {
    result = await dismissPayment(db, adminActor(admin), payment);
  } else if (email) {
    result = await attachPayment(db, adminActor(admin), payment, email, product, anyway === "yes");
  } else {
    const fieldErrors = { email: "Enter the e-mail of the account to attach it to" };
    return checked.refuse(400, firstError(fieldErrors));
  }
  if (!result.ok) {
    // The account already holds the product: the form asks whether to attach it anyway.
    const alreadyHeld = "alreadyHeld" in result;
    return checked.refuse(409, { formError: result.error }, { extra: { alreadyHeld } });
  }
  // Back to the same search (the request's URL is React Router's data URL), saying what was done.
  const asked = new URL(request.url).searchParams;
  const search = new URLSearchParams();
  for (const key of ["q", "access", "page"]) {
    const value = asked.get(key);
    if (value) search.set(key, value);
  }
  return redirectWithNotice(`/admin/members${search.size ? `?${search}` : ""}`, result.message);
}

/** "Confirm it's you" when the last proof is too old; other errors as everywhere. */
export const ErrorBoundary = AdminPageErrorBoundary;

const accessLabels = {
  all: "Everyone",
  admin: "Admins",
  member: "Members",
  refunded: "Refunded",
  none: "No access",
} as const;

export default function Members({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, payments, query, notice } = loaderData;
  const searching = useNavigation().state === "loading";
  const search = new URLSearchParams();
  if (query.q) search.set("q", query.q);
  if (query.access !== "all") search.set("access", query.access);
  const csv = `/admin/members.csv${search.size ? `?${search}` : ""}`;
  return (
    <main>
      <ConsoleHeading title="Members" csv={csv}>
        {total.toLocaleString("en-US")} account{total === 1 ? "" : "s"}
        {query.q || query.access !== "all" ? " match" : ""}, newest first.
      </ConsoleHeading>
      <UnmatchedPayments
        payments={payments}
        products={loaderData.products}
        notice={notice}
        answer={actionData}
      />
      <Form method="get" role="search" className="mt-6 flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 basis-60">
          <label htmlFor="members-q" className="block text-sm font-medium text-slate-700">
            Name or e-mail
          </label>
          <input
            id="members-q"
            type="search"
            name="q"
            defaultValue={query.q ?? ""}
            maxLength={200}
            className={fieldClass}
          />
        </div>
        <div>
          <label htmlFor="members-access" className="block text-sm font-medium text-slate-700">
            Access
          </label>
          <select
            id="members-access"
            name="access"
            defaultValue={query.access}
            className={fieldClass}
          >
            {memberAccessFilters.map((value) => (
              <option key={value} value={value}>
                {accessLabels[value]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={secondaryButton} disabled={searching}>
          {searching ? "Searching…" : "Search"}
        </button>
      </Form>
      {rows.length === 0 ? (
        <EmptyState>No accounts match.</EmptyState>
      ) : (
        <DataTable
          caption="Accounts"
          head={["Name", "E-mail", "Joined", "Access", "Paid with", "Two-factor", "Last seen"]}
        >
          {rows.map((row) => (
            <tr key={row.id}>
              <Cell wrap>
                <Link
                  to={`/admin/members/${row.id}`}
                  className="font-medium text-indigo-700 hover:underline"
                >
                  {row.name}
                </Link>
              </Cell>
              <Cell>{row.email}</Cell>
              <Cell>{formatWhen(row.createdAt)}</Cell>
              <Cell>{row.access}</Cell>
              <Cell>{row.paidVia ?? "—"}</Cell>
              <Cell>{row.twoFactorEnabled ? "on" : "off"}</Cell>
              <Cell>{formatWhen(row.lastSeenAt)}</Cell>
            </tr>
          ))}
        </DataTable>
      )}
      <Pager
        search={search}
        previous={query.page > 1 ? { page: String(query.page - 1) } : null}
        next={query.page * membersPageSize < total ? { page: String(query.page + 1) } : null}
      />
    </main>
  );
}
