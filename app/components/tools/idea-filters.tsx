import { primaryButton } from "~/components/ui";
import {
  complexities,
  type IdeaFilters,
  maxFilterLength,
  monetizationLabels,
  monetizationModels,
  techStackChoices,
} from "~/lib/ideas";

const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500";
const labelClass = "block text-sm font-medium text-slate-800";

const textFilters = [
  { key: "industry", label: "Industry", placeholder: "e.g. healthcare" },
  { key: "targetAudience", label: "Target audience", placeholder: "e.g. freelancers" },
  { key: "problemToSolve", label: "Problem to solve", placeholder: "e.g. missed appointments" },
] as const;

const complexityLabels = Object.fromEntries(
  complexities.map((c) => [c, c[0]?.toUpperCase() + c.slice(1)]),
) as Record<IdeaFilters["complexity"], string>;

/** The select filters: their label, options and the options' labels. */
const choiceFilters = {
  complexity: { label: "Complexity", options: complexities, labels: complexityLabels },
  monetizationModel: {
    label: "Monetization model",
    options: monetizationModels,
    labels: monetizationLabels,
  },
} as const;

const choiceKeys = Object.keys(choiceFilters) as (keyof typeof choiceFilters)[];

/** The idea generator's filters and its Generate button. */
export function IdeaFiltersForm({
  filters,
  set,
  generating,
  onSubmit,
}: {
  filters: IdeaFilters;
  set: <K extends keyof IdeaFilters>(key: K, value: IdeaFilters[K]) => void;
  generating: boolean;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <form
      onSubmit={onSubmit}
      className="mt-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      aria-label="Idea filters"
    >
      <div className="grid gap-4 md:grid-cols-3">
        {textFilters.map(({ key, label, placeholder }) => (
          <label key={key} className={labelClass}>
            {label}
            <input
              className={inputClass}
              value={filters[key]}
              maxLength={maxFilterLength}
              placeholder={placeholder}
              onChange={(e) => set(key, e.target.value)}
            />
          </label>
        ))}
        {choiceKeys.map((key) => {
          const { label, options, labels } = choiceFilters[key];
          return (
            <label key={key} className={labelClass}>
              {label}
              <select
                className={inputClass}
                value={filters[key]}
                onChange={(e) => set(key, e.target.value as IdeaFilters[typeof key])}
              >
                {(options as readonly string[]).map((option) => (
                  <option key={option} value={option}>
                    {(labels as Record<string, string>)[option]}
                  </option>
                ))}
              </select>
            </label>
          );
        })}
      </div>
      <fieldset className="mt-4">
        <legend className="text-sm font-medium text-slate-800">
          Tech stack{" "}
          <span className="font-normal text-slate-500">({filters.techStack.length} selected)</span>
        </legend>
        <div className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-4 lg:grid-cols-6">
          {techStackChoices.map((tech) => (
            <label key={tech} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                className="h-4 w-4 accent-indigo-600"
                checked={filters.techStack.includes(tech)}
                onChange={(e) =>
                  set(
                    "techStack",
                    e.target.checked
                      ? [...filters.techStack, tech]
                      : filters.techStack.filter((t) => t !== tech),
                  )
                }
              />
              {tech}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" disabled={generating} className={`${primaryButton} mt-5 sm:w-auto`}>
        {generating ? "Generating ideas..." : "Generate Ideas"}
      </button>
    </form>
  );
}
