import { useEffect, useRef, useState } from "react";
import { IdeaCard, IdeaDialog } from "~/components/tools/idea-details";
import { IdeaFiltersForm } from "~/components/tools/idea-filters";
import { PageShell } from "~/components/ui";
import {
  defaultFilters,
  generateIdeas,
  type IdeaFilters,
  type SaasIdea,
  sampleIdeas,
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
      <IdeaFiltersForm filters={filters} set={set} generating={generating} onSubmit={generate} />

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
