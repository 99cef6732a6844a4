import { useEffect, useRef, useState } from "react";
import { PageShell, primaryButton } from "~/components/ui";
import {
  complexities,
  defaultFilters,
  generateIdeas,
  type IdeaFilters,
  maxFilterLength,
  monetizationLabels,
  monetizationModels,
  type SaasIdea,
  sampleIdeas,
  slugify,
  techStackChoices,
} from "~/lib/ideas";
import { requireMember } from "~/server/auth/guards.server";
import type { Route } from "./+types/app-idea-generator";

export const meta: Route.MetaFunction = () => [{ title: "SaaS Idea Generator | AI Labs" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireMember(request);
  return null;
}

/** The generating state lasts 1.2 s (docs/product.md, Idea generator). */
const generationDelayMs = 1200;
const pageSize = 3;

const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500";

function exportIdea(idea: SaasIdea) {
  const blob = new Blob([`${JSON.stringify(idea, null, 2)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `${slugify(idea.title)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export default function AppIdeaGenerator() {
  const [filters, setFilters] = useState<IdeaFilters>(defaultFilters);
  const [ideas, setIdeas] = useState<readonly SaasIdea[]>(sampleIdeas);
  const [generated, setGenerated] = useState(false);
  const [generating, setGenerating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<SaasIdea | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const set = <K extends keyof IdeaFilters>(key: K, value: IdeaFilters[K]) =>
    setFilters((f) => ({ ...f, [key]: value }));

  function generate(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setGenerating(true);
    setError(null);
    const seed = Math.floor(Math.random() * 2 ** 31);
    timer.current = setTimeout(() => {
      try {
        setIdeas(generateIdeas(filters, seed));
        setGenerated(true);
      } catch (e) {
        setError(e instanceof Error ? e.message : "The ideas could not be generated.");
        setIdeas(sampleIdeas);
        setGenerated(false);
      } finally {
        setPage(0);
        setGenerating(false);
      }
    }, generationDelayMs);
  }

  const pages = Math.ceil(ideas.length / pageSize);
  const shown = ideas.slice(page * pageSize, page * pageSize + pageSize);

  return (
    <PageShell title="SaaS Idea Generator">
      <p className="max-w-2xl text-slate-600">
        Tell the generator what you know (every filter is optional) and get five SaaS ideas with
        features, pricing, market and build time.
      </p>
      <form
        onSubmit={generate}
        className="mt-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
        aria-label="Idea filters"
      >
        <div className="grid gap-4 md:grid-cols-3">
          <label className="block text-sm font-medium text-slate-800">
            Industry
            <input
              className={inputClass}
              value={filters.industry}
              maxLength={maxFilterLength}
              placeholder="e.g. healthcare"
              onChange={(e) => set("industry", e.target.value)}
            />
          </label>
          <label className="block text-sm font-medium text-slate-800">
            Target audience
            <input
              className={inputClass}
              value={filters.targetAudience}
              maxLength={maxFilterLength}
              placeholder="e.g. freelancers"
              onChange={(e) => set("targetAudience", e.target.value)}
            />
          </label>
          <label className="block text-sm font-medium text-slate-800">
            Problem to solve
            <input
              className={inputClass}
              value={filters.problemToSolve}
              maxLength={maxFilterLength}
              placeholder="e.g. missed appointments"
              onChange={(e) => set("problemToSolve", e.target.value)}
            />
          </label>
          <label className="block text-sm font-medium text-slate-800">
            Complexity
            <select
              className={inputClass}
              value={filters.complexity}
              onChange={(e) => set("complexity", e.target.value as IdeaFilters["complexity"])}
            >
              {complexities.map((c) => (
                <option key={c} value={c}>
                  {c[0]?.toUpperCase() + c.slice(1)}
                </option>
              ))}
            </select>
          </label>
          <label className="block text-sm font-medium text-slate-800">
            Monetization model
            <select
              className={inputClass}
              value={filters.monetizationModel}
              onChange={(e) =>
                set("monetizationModel", e.target.value as IdeaFilters["monetizationModel"])
              }
            >
              {monetizationModels.map((m) => (
                <option key={m} value={m}>
                  {monetizationLabels[m]}
                </option>
              ))}
            </select>
          </label>
        </div>
        <fieldset className="mt-4">
          <legend className="text-sm font-medium text-slate-800">
            Tech stack{" "}
            <span className="font-normal text-slate-500">
              ({filters.techStack.length} selected)
            </span>
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

      <section aria-labelledby="ideas-heading" className="mt-8" aria-busy={generating}>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="ideas-heading" className="text-2xl font-semibold">
            {generated ? "Your ideas" : "Sample ideas"}
          </h2>
          {pages > 1 && !generating && (
            <button
              type="button"
              onClick={() => setPage((p) => (p + 1) % pages)}
              className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
            >
              {page + 1 < pages
                ? `See other ideas (${ideas.length - (page + 1) * pageSize} more)`
                : "Back to first ideas"}
            </button>
          )}
        </div>
        <div aria-live="polite">
          {error && (
            <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-red-800">
              {error} Using sample ideas instead
            </p>
          )}
          {generating ? (
            <p className="mt-4 flex items-center gap-2 text-slate-600">
              <span
                aria-hidden="true"
                className="h-4 w-4 animate-spin rounded-full border-2 border-indigo-600 border-t-transparent"
              />
              Generating ideas...
            </p>
          ) : (
            <ul className="mt-4 grid gap-4 md:grid-cols-3">
              {shown.map((idea) => (
                <IdeaCard key={idea.id} idea={idea} onOpen={() => setOpen(idea)} />
              ))}
            </ul>
          )}
        </div>
      </section>
      <IdeaDialog idea={open} onClose={() => setOpen(null)} />
    </PageShell>
  );
}

function IdeaCard({ idea, onOpen }: { idea: SaasIdea; onOpen: () => void }) {
  return (
    <li className="flex flex-col rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h3 className="text-lg font-semibold text-slate-900">{idea.title}</h3>
      <p className="mt-2 line-clamp-4 text-sm text-slate-600">{idea.description}</p>
      <dl className="mt-3 text-sm text-slate-700">
        <dt className="inline font-medium">Build time: </dt>
        <dd className="inline">{idea.estimatedDevTime}</dd>
      </dl>
      <div className="mt-auto flex gap-2 pt-4">
        <button
          type="button"
          onClick={onOpen}
          aria-label={`View details: ${idea.title}`}
          className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
        >
          View details
        </button>
        <button
          type="button"
          onClick={() => exportIdea(idea)}
          aria-label={`Export ${idea.title} as JSON`}
          className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          Export
        </button>
      </div>
    </li>
  );
}

function IdeaDialog({ idea, onClose }: { idea: SaasIdea | null; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (idea && !dialog.open) {
      returnTo.current = document.activeElement as HTMLElement | null;
      dialog.showModal();
    } else if (!idea && dialog.open) {
      dialog.close();
    }
  }, [idea]);

  function closed() {
    onClose();
    returnTo.current?.focus();
  }

  const sections: [string, string | string[]][] = idea
    ? [
        ["Target market", idea.targetMarket],
        ["Problem solved", idea.problemSolved],
        ["Key features", idea.keyFeatures],
        ["Monetization strategy", idea.monetizationStrategy],
        ["Estimated development time", idea.estimatedDevTime],
        ["Market potential", idea.marketPotential],
        ["Competitor analysis", idea.competitorAnalysis],
        ["Tech stack", idea.techStack],
      ]
    : [];

  return (
    <dialog
      ref={ref}
      onClose={closed}
      aria-labelledby="idea-dialog-title"
      className="m-auto max-h-[90vh] w-[min(42rem,calc(100vw-2rem))] overflow-y-auto rounded-lg p-0 shadow-xl backdrop:bg-slate-900/50"
    >
      {idea && (
        <div className="p-6">
          <div className="flex items-start justify-between gap-4">
            <h2 id="idea-dialog-title" className="text-2xl font-bold text-slate-900">
              {idea.title}
            </h2>
            <button
              type="button"
              onClick={() => ref.current?.close()}
              aria-label="Close"
              className="rounded-md px-2 py-1 text-2xl leading-none text-slate-500 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
            >
              ×
            </button>
          </div>
          <p className="mt-2 text-slate-700">{idea.description}</p>
          <dl className="mt-4 space-y-3">
            {sections.map(([label, value]) => (
              <div key={label}>
                <dt className="font-semibold text-slate-900">{label}</dt>
                <dd className="mt-1 text-slate-700">
                  {Array.isArray(value) ? (
                    <ul className="list-disc pl-5">
                      {value.map((v) => (
                        <li key={v}>{v}</li>
                      ))}
                    </ul>
                  ) : (
                    value
                  )}
                </dd>
              </div>
            ))}
          </dl>
          <div className="mt-6 flex justify-end">
            <button
              type="button"
              onClick={() => exportIdea(idea)}
              className="rounded-md bg-indigo-600 px-4 py-2 font-semibold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
            >
              Export as JSON
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}
