import { Form } from "react-router";
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
import { auditKinds, auditQuerySchema } from "~/lib/admin-forms";
import { auditActors, listAudit } from "~/server/admin/audit.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import type { Route } from "./+types/audit";

export const meta: Route.MetaFunction = () => [{ title: "Audit log | AI Labs" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const query = auditQuerySchema.parse(Object.fromEntries(url.searchParams));
  const db = await getDb();
  const [page, actors] = await Promise.all([listAudit(db, query), auditActors(db)]);
  return { ...page, actors, query };
}

export default function Audit({ loaderData }: Route.ComponentProps) {
  const { rows, more, actors, query } = loaderData;
  const search = new URLSearchParams();
  if (query.actor) search.set("actor", query.actor);
  if (query.kind) search.set("kind", query.kind);
  return (
    <main>
      <ConsoleHeading title="Audit log">
        Every admin action and operator command, newest first.
      </ConsoleHeading>
      <Form
        method="get"
        className="mt-6 flex flex-wrap items-end gap-3"
        aria-label="Filter the log"
      >
        <div>
          <label htmlFor="audit-actor" className="block text-sm font-medium text-slate-700">
            Who
          </label>
          <select
            id="audit-actor"
            name="actor"
            defaultValue={query.actor ?? ""}
            className={fieldClass}
          >
            <option value="">Anyone</option>
            {actors.map((actor) => (
              <option key={actor} value={actor}>
                {actor}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-kind" className="block text-sm font-medium text-slate-700">
            What
          </label>
          <select
            id="audit-kind"
            name="kind"
            defaultValue={query.kind ?? ""}
            className={fieldClass}
          >
            <option value="">Every kind</option>
            {auditKinds.map((kind) => (
              <option key={kind} value={kind}>
                {kind}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={secondaryButton}>
          Filter
        </button>
      </Form>
      {rows.length === 0 ? (
        <EmptyState>
          Nothing recorded{query.actor || query.kind ? " for this filter" : " yet"}.
        </EmptyState>
      ) : (
        <DataTable caption="Audit log entries" head={["When", "Who", "What", "Target", "Detail"]}>
          {rows.map((row) => (
            <tr key={row.id}>
              <Cell>{formatWhen(row.at)}</Cell>
              <Cell>{row.actor}</Cell>
              <Cell>
                <code className="text-xs">{row.kind}</code>
              </Cell>
              <Cell wrap>{row.target ?? "—"}</Cell>
              <Cell wrap>{row.detail ?? ""}</Cell>
            </tr>
          ))}
        </DataTable>
      )}
      <Pager
        search={search}
        previous={query.page > 1 ? { page: String(query.page - 1) } : null}
        next={more ? { page: String(query.page + 1) } : null}
      />
    </main>
  );
}
