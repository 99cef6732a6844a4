import { useEffect, useRef } from "react";
import { type SaasIdea, slugify } from "~/lib/ideas";

/** Downloads an idea as a JSON file named after its title. */
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

export function IdeaCard({ idea, onOpen }: { idea: SaasIdea; onOpen: () => void }) {
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
