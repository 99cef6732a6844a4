import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatAmount } from "~/config/site";

export { formatAmount };

/** A console page's heading, with an optional line under it and actions beside it. */
export function ConsoleHeading({
  title,
  children,
  actions,
  csv,
}: {
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  /** Where the page's rows download as CSV: a "Download CSV" link beside the title. */
  csv?: string;
}) {
  if (csv) {
    actions = (
      <>
        {actions}
        <a href={csv} className={secondaryButton} download>
          Download CSV
        </a>
      </>
    );
  }
  return (
    <div className="mt-8 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        {children ? <p className="mt-1 text-slate-600">{children}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

/** One figure of a page's summary (inside a `dl`): its label, its value, and a line under it. */
export function Figure({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: string;
  note?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd
        className="mt-1 text-2xl font-bold tracking-tight text-slate-900 tabular-nums"
        data-testid={testId}
      >
        {value}
      </dd>
      {note ? <dd className="mt-1 text-sm text-slate-600">{note}</dd> : null}
    </div>
  );
}

/** A column heading that is more than its text: a control in it, or the column's order. */
export type HeadCell = {
  key: string;
  label: ReactNode;
  sort?: "ascending" | "descending" | "none";
};

/** A table that scrolls sideways on a phone, with a caption for screen readers. */
export function DataTable({
  caption,
  head,
  children,
}: {
  caption: string;
  head: readonly (string | HeadCell)[];
  children: ReactNode;
}) {
  return (
    // A focusable region, so that a keyboard can scroll a wide table on a phone.
    <section
      aria-label={caption}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: axe asks a scrollable region to take focus
      tabIndex={0}
      // Relative: a screen-reader-only text in a cell stays inside the scrolling box.
      className="relative mt-4 overflow-x-auto rounded-lg border border-slate-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
    >
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            {head.map((cell) => {
              const { key, label, sort } =
                typeof cell === "string" ? { key: cell, label: cell } : cell;
              return (
                <th
                  key={key}
                  scope="col"
                  aria-sort={sort}
                  className="whitespace-nowrap px-3 py-2 font-semibold"
                >
                  {label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">{children}</tbody>
      </table>
    </section>
  );
}

export function Cell({ children, wrap = false }: { children: ReactNode; wrap?: boolean }) {
  return (
    <td className={`px-3 py-2 align-top ${wrap ? "min-w-48" : "whitespace-nowrap"}`}>{children}</td>
  );
}

/** Shown in place of a table without rows. */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <p className="mt-6 rounded-lg border border-dashed border-slate-300 p-8 text-center text-slate-600">
      {children}
    </p>
  );
}

/** Previous/next links that keep the page's other query parameters. */
export function Pager({
  search,
  previous,
  next,
  pages,
}: {
  search: URLSearchParams;
  previous: Record<string, string> | null;
  next: Record<string, string> | null;
  /** Numbered links too: the page shown and the last one. */
  pages?: { current: number; last: number };
}) {
  const href = (change: Record<string, string>) => {
    const params = new URLSearchParams(search);
    for (const [key, value] of Object.entries(change)) {
      if (value) params.set(key, value);
      else params.delete(key);
    }
    const query = params.toString();
    return query ? `?${query}` : "?";
  };
  const link =
    "rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500";
  if (!previous && !next) return null;
  return (
    <nav aria-label="Pages" className="mt-4 flex flex-wrap items-center justify-between gap-2">
      {previous ? (
        <Link to={href(previous)} className={link}>
          Previous
        </Link>
      ) : (
        <span />
      )}
      {pages ? (
        <ol className="flex flex-wrap items-center gap-1">
          {pageNumbers(pages.current, pages.last).map((n, i) =>
            n === null ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: a gap has no identity but its place
              <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-slate-500">
                …
              </li>
            ) : (
              <li key={n}>
                <Link
                  to={href({ page: n === 1 ? "" : String(n) })}
                  aria-label={`Page ${n}`}
                  aria-current={n === pages.current ? "page" : undefined}
                  className={`${link} ${n === pages.current ? "border-indigo-600 bg-indigo-50 text-indigo-800" : ""}`}
                >
                  {n}
                </Link>
              </li>
            ),
          )}
        </ol>
      ) : null}
      {next ? (
        <Link to={href(next)} className={link}>
          Next
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** The page numbers a pager shows: the first, the last, and two either side of the current one; null for a gap. */
export function pageNumbers(current: number, last: number): (number | null)[] {
  const shown = new Set([1, last]);
  for (let n = current - 2; n <= current + 2; n++) if (n >= 1 && n <= last) shown.add(n);
  const sorted = [...shown].sort((a, b) => a - b);
  const numbers: (number | null)[] = [];
  for (const n of sorted) {
    const before = numbers[numbers.length - 1];
    if (typeof before === "number" && n - before > 1) numbers.push(null);
    numbers.push(n);
  }
  return numbers;
}

export const fieldClass =
  "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500";

export const secondaryButton =
  "inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-60";

// Built once: the audit log and member lists format a date per row.
const whenFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

/** A date and time as the owner reads it: 24 Nov 2026, 14:05 (UTC). */
export function formatWhen(value: Date | string | null): string {
  if (!value) return "—";
  const date = typeof value === "string" ? new Date(value) : value;
  return `${whenFormat.format(date)} UTC`;
}

/** A labelled select of a filter form; `any` is the first option's label (value ""). */
export function SelectField({
  id,
  label,
  name,
  value,
  options,
  any,
}: {
  id: string;
  label: string;
  name: string;
  value: string;
  options: readonly (string | { value: string; label: string })[];
  any?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value} className={fieldClass}>
        {any === undefined ? null : <option value="">{any}</option>}
        {options.map((option) => {
          const { value: v, label: l } =
            typeof option === "string" ? { value: option, label: option } : option;
          return (
            <option key={v} value={v}>
              {l}
            </option>
          );
        })}
      </select>
    </div>
  );
}

/** A titled section holding a table of rows, or a line saying there are none. */
export function TableSection<T>({
  id,
  title,
  caption = title,
  head,
  rows,
  empty,
  row,
}: {
  id: string;
  title: string;
  caption?: string;
  head: readonly string[];
  rows: readonly T[];
  empty: string;
  row: (item: T) => ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className="mt-8">
      <h2 id={`${id}-heading`} className="text-xl font-semibold">
        {title}
      </h2>
      {rows.length === 0 ? (
        <EmptyState>{empty}</EmptyState>
      ) : (
        <DataTable caption={caption} head={head}>
          {rows.map(row)}
        </DataTable>
      )}
    </section>
  );
}

/** The From and To date inputs of a range form (UTC days, YYYY-MM-DD). */
export function DateRangeFields({
  id,
  range,
  required = false,
}: {
  id: string;
  range: { from: string; to: string };
  required?: boolean;
}) {
  return (
    <>
      {(["from", "to"] as const).map((end) => (
        <div key={end}>
          <label htmlFor={`${id}-${end}`} className="block text-sm font-medium text-slate-700">
            {end === "from" ? "From" : "To"}
          </label>
          <input
            id={`${id}-${end}`}
            type="date"
            name={end}
            required={required}
            defaultValue={range[end]}
            className={fieldClass}
          />
        </div>
      ))}
    </>
  );
}
