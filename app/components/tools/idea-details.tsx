import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { FormAnswer } from "~/lib/form-answer";
import { ideaToMarkdown, type SaasIdea, slugify } from "~/lib/ideas";

/** Downloads `text` as a file named `name`. */
function download(text: string, name: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Downloads an idea as a JSON file named after its title. */
export function exportIdeaJson(idea: SaasIdea) {
  download(`${JSON.stringify(idea, null, 2)}\n`, `${slugify(idea.title)}.json`, "application/json");
}

/** Downloads an idea as a Markdown file named after its title. */
export function exportIdeaMarkdown(idea: SaasIdea) {
  download(ideaToMarkdown(idea), `${slugify(idea.title)}.md`, "text/markdown");
}

const smallButton =
  "rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-60";

const exportFormats = [
  { name: "JSON", save: exportIdeaJson },
  { name: "Markdown", save: exportIdeaMarkdown },
];

/** Export buttons of one idea: JSON and Markdown. */
export function ExportButtons({ idea }: { idea: SaasIdea }) {
  return (
    <>
      {exportFormats.map(({ name, save }) => (
        <button
          key={name}
          type="button"
          onClick={() => save(idea)}
          aria-label={`Export ${idea.title} as ${name}`}
          className={smallButton}
        >
          {name}
        </button>
      ))}
    </>
  );
}

/** "Export:" and the two formats, on a line of their own. */
export function ExportRow({ idea }: { idea: SaasIdea }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="text-sm text-slate-600">Export:</span>
      <ExportButtons idea={idea} />
    </div>
  );
}

/**
 * Saves the idea to the member's account (a post to the page's action, which
 * answers with the saved list); "Saved" once it is kept.
 */
export function SaveIdeaButton({ idea, saved }: { idea: SaasIdea; saved: boolean }) {
  const fetcher = useFetcher<FormAnswer | null>();
  const saving = fetcher.state !== "idle";
  const error = fetcher.state === "idle" ? fetcher.data?.formError : null;
  return (
    <fetcher.Form method="post" className="contents">
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="idea" value={JSON.stringify(idea)} />
      <button
        type="submit"
        disabled={saved || saving}
        aria-label={saved ? `${idea.title} is saved` : `Save ${idea.title}`}
        className={`${smallButton} ${saved ? "border-emerald-300 bg-emerald-50 text-emerald-800" : ""}`}
      >
        {saved ? "Saved" : saving ? "Saving..." : "Save"}
      </button>
      {error ? (
        <p role="alert" className="basis-full text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fetcher.Form>
  );
}

export function IdeaCard({
  idea,
  saved,
  onOpen,
}: {
  idea: SaasIdea;
  saved: boolean;
  onOpen: () => void;
}) {
  return (
    <li className="flex flex-col rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h3 className="text-lg font-semibold text-slate-900">{idea.title}</h3>
      <p className="mt-2 line-clamp-4 text-sm text-slate-600">{idea.description}</p>
      <dl className="mt-3 text-sm text-slate-700">
        <dt className="inline font-medium">Build time: </dt>
        <dd className="inline">{idea.estimatedDevTime}</dd>
      </dl>
      <div className="mt-auto space-y-2 pt-4">
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            onClick={onOpen}
            aria-label={`View details: ${idea.title}`}
            className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
          >
            View details
          </button>
          <SaveIdeaButton idea={idea} saved={saved} />
        </div>
        <ExportRow idea={idea} />
      </div>
    </li>
  );
}

/** The dialog's export buttons: Markdown, then JSON as the main one. */
const dialogExports = [
  {
    name: "Markdown",
    save: exportIdeaMarkdown,
    className:
      "rounded-md border border-slate-300 px-4 py-2 font-semibold text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
  },
  {
    name: "JSON",
    save: exportIdeaJson,
    className:
      "rounded-md bg-indigo-600 px-4 py-2 font-semibold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2",
  },
];

export function IdeaDialog({ idea, onClose }: { idea: SaasIdea | null; onClose: () => void }) {
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
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            {dialogExports.map(({ name, save, className }) => (
              <button key={name} type="button" onClick={() => save(idea)} className={className}>
                {`Export as ${name}`}
              </button>
            ))}
          </div>
        </div>
      )}
    </dialog>
  );
}
