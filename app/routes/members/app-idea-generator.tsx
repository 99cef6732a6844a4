import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { ExportRow, IdeaCard, IdeaDialog } from "~/components/tools/idea-details";
import { IdeaFiltersForm } from "~/components/tools/idea-filters";
import { PageShell } from "~/components/ui";
import type { FormAnswer } from "~/lib/form-answer";
import { savedIdeaSchema } from "~/lib/idea-forms";
import {
  defaultFilters,
  generateIdeas,
  type IdeaFilters,
  type SaasIdea,
  sampleIdeas,
} from "~/lib/ideas";
import { requireMember } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import { firstError, readCheckedForm } from "~/server/forms.server";
import {
  listSavedIdeas,
  removeSavedIdea,
  type SavedIdea,
  saveIdea,
} from "~/server/ideas/saved-ideas.server";
import type { Route } from "./+types/app-idea-generator";

export const meta: Route.MetaFunction = () => [{ title: "SaaS Idea Generator | AI Labs" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireMember(request);
  return { saved: await listSavedIdeas(await getDb(), user.id) };
}

/** Saves an idea to the member's account, or removes a saved one. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireMember(request);
  const form = await readCheckedForm(request, savedIdeaSchema);
  if (!form.ok) return form.refuse(400, firstError(form.fieldErrors));
  const db = await getDb();
  if (form.data.intent === "remove") {
    if (!(await removeSavedIdea(db, user.id, form.data.id))) {
      return form.refuse(404, { formError: "That saved idea was not found." });
    }
    return null;
  }
  const outcome = await saveIdea(db, user.id, form.data.idea);
  return outcome.ok ? null : form.refuse(409, { formError: outcome.error });
}

/** The generating state lasts 1.2 s (docs/product.md, Idea generator). */
const generationDelayMs = 1200;

export default function AppIdeaGenerator({ loaderData }: Route.ComponentProps) {
  const { saved } = loaderData;
  const [filters, setFilters] = useState<IdeaFilters>(defaultFilters);
  const [ideas, setIdeas] = useState<readonly SaasIdea[]>(sampleIdeas);
  const [generated, setGenerated] = useState(false);
  const [generating, setGenerating] = useState(false);
  const [error, setError] = useState<string | null>(null);
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
        setGenerating(false);
      }
    }, generationDelayMs);
  }

  const savedIds = new Set(saved.map((s) => s.idea.id));

  return (
    <PageShell title="SaaS Idea Generator">
      <p className="max-w-2xl text-slate-600">
        Tell the generator what you know (every filter is optional) and get five SaaS ideas with
        features, pricing, market and build time. Save the ones you like to your account.
      </p>
      <IdeaFiltersForm filters={filters} set={set} generating={generating} onSubmit={generate} />

      <section aria-labelledby="ideas-heading" className="mt-8" aria-busy={generating}>
        <h2 id="ideas-heading" className="text-2xl font-semibold">
          {generated ? "Your ideas" : "Sample ideas"}
        </h2>
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
            // All five at once: nothing is hidden behind paging.
            <ul className="mt-4 grid gap-4 md:grid-cols-2 xl:grid-cols-3">
              {ideas.map((idea) => (
                <IdeaCard
                  key={idea.id}
                  idea={idea}
                  saved={savedIds.has(idea.id)}
                  onOpen={() => setOpen(idea)}
                />
              ))}
            </ul>
          )}
        </div>
      </section>

      <SavedIdeas saved={saved} onOpen={setOpen} />
      <IdeaDialog idea={open} onClose={() => setOpen(null)} />
    </PageShell>
  );
}

/** The member's saved ideas: open, export or remove each. */
function SavedIdeas({ saved, onOpen }: { saved: SavedIdea[]; onOpen: (idea: SaasIdea) => void }) {
  return (
    <section aria-labelledby="saved-heading" className="mt-12">
      <h2 id="saved-heading" className="text-2xl font-semibold">
        Saved ideas
      </h2>
      {saved.length === 0 ? (
        <p className="mt-3 rounded-lg border border-dashed border-slate-300 p-6 text-center text-slate-600">
          No saved ideas yet. Press Save on an idea to keep it here.
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {saved.map((s) => (
            <SavedIdeaRow key={s.savedId} saved={s} onOpen={() => onOpen(s.idea)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function SavedIdeaRow({ saved, onOpen }: { saved: SavedIdea; onOpen: () => void }) {
  const fetcher = useFetcher<FormAnswer | null>();
  const { idea } = saved;
  const removing = fetcher.state !== "idle";
  const error = fetcher.state === "idle" ? fetcher.data?.formError : null;
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <h3 className="font-semibold text-slate-900">{idea.title}</h3>
        <p className="text-sm text-slate-600">
          Saved{" "}
          <time dateTime={saved.savedAt}>
            {new Date(saved.savedAt).toLocaleDateString("en-US", {
              dateStyle: "medium",
              timeZone: "UTC",
            })}
          </time>{" "}
          · {idea.estimatedDevTime}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          onClick={onOpen}
          aria-label={`View saved idea: ${idea.title}`}
          className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
        >
          View
        </button>
        <ExportRow idea={idea} />
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="id" value={saved.savedId} />
          <button
            type="submit"
            disabled={removing}
            aria-label={`Remove ${idea.title}`}
            className="rounded-md border border-red-300 px-3 py-2 text-sm font-medium text-red-700 hover:bg-red-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-500 disabled:opacity-60"
          >
            {removing ? "Removing..." : "Remove"}
          </button>
        </fetcher.Form>
        {error ? (
          <p role="alert" className="basis-full text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    </li>
  );
}
