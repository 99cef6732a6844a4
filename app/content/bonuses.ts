import { type BonusFile, formatUsd, memberBonusValuesCents } from "~/config/site";

/** A bonus on /bonuses: a file to download, or (without one) the Discord invite. */
export type Bonus = {
  title: string;
  value: string;
  description: string;
  includes: readonly string[];
  file?: BonusFile;
  action: string;
};

/** The members' bonuses, in the order shown. */
export const memberBonuses: readonly Bonus[] = [
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
