import { Form } from "react-router";
import {
  Cell,
  ConsoleHeading,
  DataTable,
  EmptyState,
  formatWhen,
  Pager,
  SelectField,
  secondaryButton,
} from "~/components/admin/console";
import { auditKinds, auditQuerySchema } from "~/lib/admin-forms";
import { auditActors, listAudit } from "~/server/admin/audit.server";
import { consoleLoader } from "~/server/admin/console.server";
import type { Route } from "./+types/audit";

export const loader = consoleLoader(auditQuerySchema, async (db, query) => {
  const [page, actors] = await Promise.all([listAudit(db, query), auditActors(db)]);
  return { ...page, actors, query };
});

export default function Audit({ loaderData }: Route.ComponentProps) {
  const { rows, more, actors, query } = loaderData;
  const search = new URLSearchParams();
  if (query.actor) search.set("actor", query.actor);
  if (query.kind) search.set("kind", query.kind);
  return (
    <main>
      <ConsoleHeading title="Audit log">
        Every admin action, operator command and security event (sign-ins, failed sign-ins,
        two-factor and password changes), newest first.
      </ConsoleHeading>
      <Form
        method="get"
        className="mt-6 flex flex-wrap items-end gap-3"
        aria-label="Filter the log"
      >
        {[
          { name: "actor", label: "Who", options: actors, any: "Anyone" },
          { name: "kind", label: "What", options: auditKinds, any: "Every kind" },
        ].map((filter) => (
          <SelectField
            key={filter.name}
            id={`audit-${filter.name}`}
            value={(filter.name === "actor" ? query.actor : query.kind) ?? ""}
            {...filter}
          />
        ))}
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
