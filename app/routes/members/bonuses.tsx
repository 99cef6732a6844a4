import { PageShell } from "~/components/ui";
import { type BonusFile, formatUsd, memberBonusValuesCents, site } from "~/config/site";
import { requireMember } from "~/server/auth/guards.server";
import { getEnv } from "~/server/env.server";
import type { Route } from "./+types/bonuses";

export const meta: Route.MetaFunction = () => [{ title: "Premium Bonuses | AI Labs" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireMember(request);
  return { discordInviteUrl: getEnv().discordInviteUrl ?? null };
}

type Bonus = {
  title: string;
  value: string;
  description: string;
  includes: readonly string[];
  file?: BonusFile;
  action: string;
};

const bonuses: readonly Bonus[] = [
  {
    title: "Todo List SaaS Boilerplate",
    value: formatUsd(memberBonusValuesCents.boilerplate),
    description: "A small but complete SaaS starting point you can rename, recolour and build on.",
    includes: [
      "User sign-up and login (scrypt password hashes)",
      "React frontend",
      "Node backend with its database schema",
      "Branding options in one config file",
    ],
    file: "todoersproject.zip",
    action: "Download todoersproject.zip",
  },
  {
    title: "30-Day Launch Plan",
    value: formatUsd(memberBonusValuesCents.launchPlan),
    description: "A day-by-day plan from idea to first paying customers, with concrete tasks.",
    includes: [
      "Week 1: pick and validate the idea",
      "Week 2: build the MVP",
      "Week 3: prepare the launch",
      "Week 4: launch and first revenue",
    ],
    file: "30-day-launch-plan.txt",
    action: "Download the launch plan",
  },
  {
    title: "AI Prompt Engineering Vault",
    value: formatUsd(memberBonusValuesCents.promptVault),
    description: "Ready-to-paste prompts for building, launching and selling your app.",
    includes: [
      "Marketing and sales copy",
      "Product development",
      "UI/UX design descriptions",
      "Technical documentation",
    ],
    file: "ai-prompt-engineering-vault.txt",
    action: "Download the prompt vault",
  },
  {
    title: "Private Community (Discord)",
    value: `${formatUsd(memberBonusValuesCents.communityPerYear)}/year`,
    description: "Ask questions, share your launches and get feedback from other members.",
    includes: ["Weekly Q&A threads", "Launch feedback", "Member wins and accountability"],
    action: "Join Discord (Coming Soon)",
  },
];

export default function Bonuses({ loaderData }: Route.ComponentProps) {
  const { discordInviteUrl } = loaderData;

  function joinDiscord() {
    if (discordInviteUrl) window.open(discordInviteUrl, "_blank", "noopener,noreferrer");
    else alert("Discord invite link coming soon!");
  }

  return (
    <PageShell title="Premium Bonuses">
      <p className="max-w-2xl text-slate-600">
        Your bonuses as a course member. Trouble with a download? E-mail{" "}
        <a className="text-indigo-700 underline" href={`mailto:${site.supportEmail}`}>
          {site.supportEmail}
        </a>
        .
      </p>
      <ul className="mt-6 grid gap-6 md:grid-cols-2">
        {bonuses.map((bonus) => (
          <li
            key={bonus.title}
            className="flex flex-col rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
          >
            <div className="flex items-start justify-between gap-4">
              <h2 className="text-xl font-semibold text-slate-900">{bonus.title}</h2>
              <span className="shrink-0 rounded-full bg-emerald-50 px-3 py-1 text-sm font-semibold text-emerald-800">
                Value {bonus.value}
              </span>
            </div>
            <p className="mt-2 text-slate-600">{bonus.description}</p>
            <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-700">
              {bonus.includes.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
            <div className="mt-auto pt-5">
              {bonus.file ? (
                <a
                  href={`/bonuses/download/${bonus.file}`}
                  download={bonus.file}
                  className="inline-flex items-center rounded-md bg-indigo-600 px-4 py-2.5 font-semibold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
                >
                  {bonus.action}
                </a>
              ) : (
                <button
                  type="button"
                  onClick={joinDiscord}
                  className="inline-flex items-center rounded-md bg-indigo-600 px-4 py-2.5 font-semibold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
                >
                  {discordInviteUrl ? "Join Discord" : bonus.action}
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </PageShell>
  );
}
