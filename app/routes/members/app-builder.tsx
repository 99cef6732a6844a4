import { useState } from "react";
import { PageShell, primaryButton } from "~/components/ui";
import { examplePrompts } from "~/content/app-builder";
import { buildAppBuilderUrl, maxPromptLength } from "~/lib/app-builder";
import { memberPageLoader } from "~/server/auth/guards.server";
import { getEnv } from "~/server/env.server";
import type { Route } from "./+types/app-builder";

export const meta: Route.MetaFunction = () => [{ title: "App Builder | AI Labs" }];

export const loader = memberPageLoader(() => ({ builderUrl: getEnv().appBuilderUrl }));

export default function AppBuilder({ loaderData }: Route.ComponentProps) {
  const { builderUrl } = loaderData;
  const [prompt, setPrompt] = useState("");
  const builderHost = new URL(builderUrl).host;

  function build(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = prompt.trim();
    if (!text) return;
    window.open(buildAppBuilderUrl(builderUrl, text), "_blank", "noopener,noreferrer");
  }

  return (
    <PageShell title="App Builder">
      <p className="max-w-2xl text-slate-600">
        Describe the app you want: who it is for, what it does, and how it makes money. Build opens{" "}
        {builderHost} in a new tab with your prompt filled in.
      </p>
      <div className="mt-6 grid items-start gap-8 lg:grid-cols-[2fr_1fr]">
        <form
          onSubmit={build}
          className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
        >
          <label htmlFor="prompt" className="block font-semibold text-slate-900">
            Your app prompt
          </label>
          <textarea
            id="prompt"
            name="prompt"
            required
            maxLength={maxPromptLength}
            rows={10}
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
            aria-describedby="prompt-count"
            placeholder="Build a SaaS app that..."
            className="mt-2 block w-full rounded-md border border-slate-300 px-3 py-2 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500"
          />
          <p
            id="prompt-count"
            className="mt-1 text-right text-sm text-slate-500"
            aria-live="polite"
          >
            {prompt.length.toLocaleString("en-US")} / {maxPromptLength.toLocaleString("en-US")}{" "}
            characters
          </p>
          <button type="submit" className={`${primaryButton} mt-4 sm:w-auto`}>
            Build
          </button>
        </form>
        <section aria-labelledby="examples-heading">
          <h2 id="examples-heading" className="font-semibold text-slate-900">
            Example prompts
          </h2>
          <ul className="mt-2 space-y-2">
            {examplePrompts.map((example) => (
              <li key={example.label}>
                <button
                  type="button"
                  onClick={() => setPrompt(example.prompt)}
                  className="w-full rounded-md border border-slate-200 bg-white px-3 py-2 text-left text-sm hover:border-indigo-400 hover:bg-indigo-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                >
                  <span className="font-medium text-slate-900">{example.label}</span>
                  <span className="mt-1 line-clamp-2 block text-slate-600">{example.prompt}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </PageShell>
  );
}
