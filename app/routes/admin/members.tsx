import { Fragment } from "react";
import { data, Form, Link, useLocation, useNavigation } from "react-router";
import { AdminPageErrorBoundary } from "~/components/admin/confirm-its-you";
import {
  Cell,
  ConsoleHeading,
  DataTable,
  EmptyState,
  formatAmount,
  formatWhen,
  type HeadCell,
  Pager,
  SelectField,
  secondaryButton,
} from "~/components/admin/console";
import { MemberFilterFields } from "~/components/admin/member-filters";
import { UnmatchedPayments } from "~/components/admin/unmatched-payments";
import { FormError, Notice } from "~/components/form-answer";
import { funnelProductKeys } from "~/config/site";
import {
  bulkAccessSchema,
  bulkMembersSchema,
  type MemberSort,
  membersPageSize,
  membersQuerySchema,
  membersSearch,
  paymentIssueActionSchema,
} from "~/lib/admin-forms";
import { isFormAnswer } from "~/lib/form-answer";
import { adminActor } from "~/server/admin/audit.server";
import { applyBulkAccess, previewBulkAccess } from "~/server/admin/bulk-access.server";
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
import { course } from "~/server/db/schema";
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
  const [members, unmatched, courses] = await Promise.all([
    listMembers(db, query),
    unmatchedPayments(db),
    db
      .select({ id: course.id, title: course.title })
      .from(course)
      .orderBy(course.sortOrder, course.createdAt),
  ]);
  // Each payment with the product it most likely paid for, which its form offers first.
  const offer = currentOfferSettings();
  const payments = unmatched.map((p) => ({ ...p, likelyProduct: likelyProduct(offer, p) }));
  const products = funnelProductKeys.map((key) => ({ key, name: productName(key) }));
  const { notice, headers } = takeNotice(request);
  return data({ ...members, payments, products, courses, query, notice }, { headers });
}

/** The page's own address with the query it was shown with (the action's request URL is React Router's). */
function backTo(request: Request) {
  const search = membersSearch(
    membersQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams)),
  );
  return `/admin/members${search.size ? `?${search}` : ""}`;
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  // Attaching a payment or granting grants access: only with a recent proof.
  await requireRecentProof(request, admin, form);
  const db = await getDb();
  if (String(form.get("intent")).startsWith("bulk-")) {
    const checked = checkForm(form, bulkAccessSchema, ["product"]);
    const ids = bulkMembersSchema.safeParse(form.getAll("member"));
    // Marked, so the page shows the refusal at the bulk form, not at the payments'.
    const bulk = { extra: { bulk: true } };
    if (!checked.ok) return checked.refuse(400, firstError(checked.fieldErrors), bulk);
    if (!ids.success) {
      return checked.refuse(400, firstError({ member: ids.error.issues[0]?.message ?? "" }), bulk);
    }
    const { intent, product, confirm } = checked.data;
    if (confirm !== "yes") {
      return data({ preview: await previewBulkAccess(db, intent, product, ids.data) });
    }
    const done = await applyBulkAccess(db, adminActor(admin), intent, product, ids.data);
    return redirectWithNotice(backTo(request), done.message);
  }
  const checked = checkForm(form, paymentIssueActionSchema, ["email", "product", "providerRef"]);
  if (!checked.ok) return checked.refuse(400, firstError(checked.fieldErrors));
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
  // Back to the same search, saying what was done.
  return redirectWithNotice(backTo(request), result.message);
}

/** "Confirm it's you" when the last proof is too old; other errors as everywhere. */
export const ErrorBoundary = AdminPageErrorBoundary;

const sortLabels: Record<MemberSort, string> = {
  name: "Name",
  email: "E-mail",
  joined: "Joined",
  access: "Access",
  progress: "Progress",
  spend: "Spend",
  active: "Last active",
};

/** A heading's link flips the column's order; a new column starts A to Z for text, highest first for figures. */
function nextDir(query: { sort: MemberSort; dir: "asc" | "desc" }, sort: MemberSort) {
  if (query.sort === sort) return query.dir === "asc" ? "desc" : "asc";
  return sort === "name" || sort === "email" ? "asc" : "desc";
}

/** How the rows are ordered, in words: "newest first", "by spend, highest first"… */
function orderLabel({ sort, dir }: { sort: MemberSort; dir: "asc" | "desc" }) {
  const words: Record<MemberSort, [string, string]> = {
    name: ["by name, A to Z", "by name, Z to A"],
    email: ["by e-mail, A to Z", "by e-mail, Z to A"],
    joined: ["oldest first", "newest first"],
    access: ["by access, A to Z", "by access, Z to A"],
    progress: ["by progress, least first", "by progress, most first"],
    spend: ["by spend, lowest first", "by spend, highest first"],
    active: ["by last activity, longest ago first", "by last activity, most recent first"],
  };
  return words[sort][dir === "asc" ? 0 : 1];
}

type Preview = {
  intent: "bulk-grant" | "bulk-revoke";
  product: string;
  productName: string;
  changes: { id: string; email: string; isAdmin: boolean }[];
  unchanged: { id: string; email: string }[];
};

export default function Members({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, payments, query, notice, products, courses } = loaderData;
  const navigation = useNavigation();
  const location = useLocation();
  const searching = navigation.state === "loading";
  const search = membersSearch(query);
  const csv = membersSearch(query, { page: 1, sort: "joined", dir: "desc" });
  const filtered = [...csv.keys()].length > 0;
  const names = Object.fromEntries(products.map((p) => [p.key, p.name]));
  const answer = actionData as { preview?: Preview; bulk?: true } | undefined;
  const preview = answer?.preview;
  const bulkAnswer = answer?.bulk ? actionData : undefined;
  const paymentAnswer = answer?.bulk || preview ? undefined : actionData;
  const last = Math.max(1, Math.ceil(total / membersPageSize));
  const sortLink = (sort: MemberSort) => {
    const dir = nextDir(query, sort);
    const to = membersSearch(query, { sort, dir, page: 1 });
    return `?${to}`;
  };
  const head = (sort: MemberSort): HeadCell => ({
    key: sort,
    sort: query.sort === sort ? (query.dir === "asc" ? "ascending" : "descending") : undefined,
    label: (
      <Link to={sortLink(sort)} className="inline-flex items-center gap-1 hover:underline">
        {sortLabels[sort]}
        <span aria-hidden="true" className="text-slate-500">
          {query.sort === sort ? (query.dir === "asc" ? "▲" : "▼") : "↕"}
        </span>
        <span className="sr-only">
          {nextDir(query, sort) === "asc" ? ", sort ascending" : ", sort descending"}
        </span>
      </Link>
    ),
  });
  return (
    <main>
      <ConsoleHeading
        title="Members"
        csv={`/admin/members.csv${csv.size ? `?${csv}` : ""}`}
        actions={
          <Link to={`/admin/email${csv.size ? `?${csv}` : ""}`} className={secondaryButton}>
            E-mail {filtered ? "these" : "all"} members
          </Link>
        }
      >
        {total.toLocaleString("en-US")} account{total === 1 ? "" : "s"}
        {filtered ? " match" : ""}, {orderLabel(query)}.
      </ConsoleHeading>
      <UnmatchedPayments
        payments={payments}
        products={products}
        notice={payments.length > 0 ? notice : null}
        answer={paymentAnswer}
      />
      {payments.length > 0 ? null : <Notice notice={notice} />}
      <Form method="get" role="search" className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <MemberFilterFields
          filters={query}
          products={products}
          courses={courses}
          idPrefix="members"
        />
        <input type="hidden" name="sort" value={query.sort} />
        <input type="hidden" name="dir" value={query.dir} />
        <div className="flex items-end gap-3 sm:col-span-2 lg:col-span-3">
          <button type="submit" className={secondaryButton} disabled={searching}>
            {searching ? "Searching…" : "Search"}
          </button>
          {filtered ? (
            <Link
              to="/admin/members"
              className="text-sm font-medium text-indigo-700 hover:underline"
            >
              Clear filters
            </Link>
          ) : null}
        </div>
      </Form>
      {preview ? <BulkConfirm preview={preview} back={`?${search}`} /> : null}
      {rows.length === 0 ? (
        <EmptyState>No accounts match.</EmptyState>
      ) : (
        // Keyed by the navigation: after an action or a new page, nothing stays ticked.
        <Fragment key={location.key}>
          <BulkBar products={products} answer={bulkAnswer} />
          <DataTable
            caption="Accounts"
            head={[
              { key: "tick", label: <TickAll /> },
              head("name"),
              head("email"),
              head("joined"),
              head("access"),
              "Products",
              head("progress"),
              head("spend"),
              head("active"),
            ]}
          >
            {rows.map((row) => (
              <tr key={row.id}>
                <td className="px-3 py-2 align-top">
                  <input
                    type="checkbox"
                    form="bulk-access"
                    name="member"
                    value={row.id}
                    aria-label={`Tick ${row.email}`}
                    className="h-5 w-5 rounded border-slate-400"
                  />
                </td>
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
                <Cell wrap>{row.products.map((p) => names[p] ?? p).join(", ") || "—"}</Cell>
                <Cell>
                  {row.chaptersDone} of {row.chapters}
                  {row.chapters > 0
                    ? ` (${Math.round((100 * row.chaptersDone) / row.chapters)}%)`
                    : ""}
                </Cell>
                <Cell>{formatAmount(row.spendCents, "usd")}</Cell>
                <Cell>{formatWhen(row.lastActiveAt)}</Cell>
              </tr>
            ))}
          </DataTable>
        </Fragment>
      )}
      <Pager
        search={search}
        previous={query.page > 1 ? { page: String(query.page - 1) } : null}
        next={query.page < last ? { page: String(query.page + 1) } : null}
        pages={{ current: query.page, last }}
      />
    </main>
  );
}

/** Ticks or clears every member on the page (the boxes belong to the bulk form). */
function TickAll() {
  return (
    <input
      type="checkbox"
      aria-label="Tick every member on this page"
      className="h-5 w-5 rounded border-slate-400"
      onChange={(event) => {
        const boxes = document.querySelectorAll<HTMLInputElement>(
          'input[form="bulk-access"][name="member"]',
        );
        for (const box of boxes) box.checked = event.currentTarget.checked;
      }}
    />
  );
}

/** Grant or revoke one product for the ticked members: the action shows who it changes first. */
function BulkBar({
  products,
  answer,
}: {
  products: readonly { key: string; name: string }[];
  answer: unknown;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <Form
      id="bulk-access"
      method="post"
      className="mt-6 rounded-lg border border-slate-200 bg-slate-50 p-3"
    >
      <FormError answer={answer} />
      <div className="flex flex-wrap items-end gap-3">
        <SelectField
          id="bulk-product"
          label="For the ticked members"
          name="product"
          value={isFormAnswer(answer) ? (answer.values.product ?? "") : ""}
          any="Choose a product"
          options={products.map((p) => ({ value: p.key, label: p.name }))}
        />
        <button
          type="submit"
          name="intent"
          value="bulk-grant"
          className={secondaryButton}
          disabled={busy}
        >
          Grant…
        </button>
        <button
          type="submit"
          name="intent"
          value="bulk-revoke"
          className={secondaryButton}
          disabled={busy}
        >
          Revoke…
        </button>
      </div>
    </Form>
  );
}

/** The ticked members the action would change, asked once more before it is done. */
function BulkConfirm({ preview, back }: { preview: Preview; back: string }) {
  const busy = useNavigation().state === "submitting";
  const grant = preview.intent === "bulk-grant";
  const count = preview.changes.length;
  const members = `${count} member${count === 1 ? "" : "s"}`;
  const titleId = "bulk-confirm-title";
  return (
    <section
      role="alertdialog"
      aria-labelledby={titleId}
      className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4"
    >
      <h2 id={titleId} className="text-lg font-semibold">
        {count === 0
          ? `Nothing to ${grant ? "grant" : "revoke"}`
          : grant
            ? `Grant ${preview.productName} to ${members}?`
            : `Revoke ${preview.productName} from ${members}?`}
      </h2>
      {count > 0 ? (
        <ul className="mt-2 list-inside list-disc text-sm">
          {preview.changes.map((t) => (
            <li key={t.id} className="break-all">
              {t.email}
              {!grant && t.isAdmin ? " (an admin: keeps access as one)" : ""}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="mt-2 text-sm text-slate-700">
        {grant
          ? "Each gets it as a $0 grant by hand, which no sales figure counts."
          : "Their purchases of it stop giving access. Nothing is refunded and the sales figures do not change."}
        {preview.unchanged.length > 0
          ? ` ${preview.unchanged.length} ticked ${preview.unchanged.length === 1 ? "member" : "members"} ${
              grant ? "already hold it" : "do not hold it"
            } and stay as they are.`
          : ""}
      </p>
      <Form method="post" className="mt-3 flex flex-wrap gap-3">
        <input type="hidden" name="intent" value={preview.intent} />
        <input type="hidden" name="product" value={preview.product} />
        <input type="hidden" name="confirm" value="yes" />
        {preview.changes.map((t) => (
          <input key={t.id} type="hidden" name="member" value={t.id} />
        ))}
        {count > 0 ? (
          <button
            type="submit"
            className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-60"
            disabled={busy}
          >
            {busy ? "Working…" : grant ? `Yes, grant to ${members}` : `Yes, revoke from ${members}`}
          </button>
        ) : null}
        <Link to={back} className={secondaryButton}>
          Cancel
        </Link>
      </Form>
    </section>
  );
}
