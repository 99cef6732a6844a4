import { fieldClass, SelectField } from "~/components/admin/console";
import {
  type Audience,
  memberAccessFilters,
  memberProgressFilters,
  memberProviders,
  memberSeenFilters,
} from "~/lib/admin-forms";

// The members list's filters, as fields of a GET form: the student list
// filters by them, and a broadcast goes to the members they match.

const accessLabels = {
  all: "Everyone",
  admin: "Admins",
  member: "Members",
  refunded: "Refunded",
  none: "No access (never paid)",
} as const;

const progressLabels = {
  all: "Any",
  "not-started": "Not started",
  "in-progress": "In progress",
  finished: "Finished",
} as const;

const providerLabels = {
  stripe: "Stripe",
  warriorplus: "WarriorPlus",
  test: "Test checkout",
  manual: "Granted by hand",
} as const;

const seenLabels = { all: "Any time", never: "Never signed in" } as const;

type Choice = { key: string; name: string } | { id: string; title: string };

/** The search box and the filter fields, each labelled; `idPrefix` keeps ids unique on a page. */
export function MemberFilterFields({
  filters,
  products,
  courses,
  idPrefix,
}: {
  filters: Audience;
  products: readonly Extract<Choice, { key: string }>[];
  courses: readonly Extract<Choice, { id: string }>[];
  idPrefix: string;
}) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const courseOptions = courses.map((c) => ({ value: c.id, label: c.title }));
  return (
    <>
      <div className="sm:col-span-2">
        <label htmlFor={id("q")} className="block text-sm font-medium text-slate-700">
          Name or e-mail
        </label>
        <input
          id={id("q")}
          type="search"
          name="q"
          defaultValue={filters.q ?? ""}
          maxLength={200}
          className={fieldClass}
        />
      </div>
      <SelectField
        id={id("access")}
        label="Access"
        name="access"
        value={filters.access}
        options={memberAccessFilters.map((value) => ({ value, label: accessLabels[value] }))}
      />
      <SelectField
        id={id("product")}
        label="Holds"
        name="product"
        value={filters.product ?? ""}
        any="Any product"
        options={products.map((p) => ({ value: p.key, label: p.name }))}
      />
      <SelectField
        id={id("provider")}
        label="Paid with"
        name="provider"
        value={filters.provider ?? ""}
        any="Any way"
        options={memberProviders.map((value) => ({ value, label: providerLabels[value] }))}
      />
      <DateField id={id("from")} label="Joined from" name="joinedFrom" value={filters.joinedFrom} />
      <DateField id={id("to")} label="Joined until" name="joinedTo" value={filters.joinedTo} />
      <SelectField
        id={id("progress")}
        label="Progress"
        name="progress"
        value={filters.progress}
        options={memberProgressFilters.map((value) => ({ value, label: progressLabels[value] }))}
      />
      <SelectField
        id={id("course")}
        label="In"
        name="course"
        value={filters.course ?? ""}
        any="Every course"
        options={courseOptions}
      />
      <SelectField
        id={id("opens")}
        label="Can open"
        name="opens"
        value={filters.opens ?? ""}
        any="Any course"
        options={courseOptions}
      />
      <SelectField
        id={id("seen")}
        label="Signed in"
        name="seen"
        value={filters.seen}
        options={memberSeenFilters.map((value) => ({ value, label: seenLabels[value] }))}
      />
    </>
  );
}

function DateField({
  id,
  label,
  name,
  value,
}: {
  id: string;
  label: string;
  name: string;
  value: string | null;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input id={id} type="date" name={name} defaultValue={value ?? ""} className={fieldClass} />
    </div>
  );
}
