import { type Domain, domains, problemDefaults, products } from "~/content/ideas";

/** SaaS idea generation (docs/product.md, Idea generator): pure and seeded. */

export const complexities = ["low", "medium", "high"] as const;
export type Complexity = (typeof complexities)[number];

export const monetizationModels = ["subscription", "freemium", "one-time", "usage"] as const;
export type MonetizationModel = (typeof monetizationModels)[number];

export const monetizationLabels: Record<MonetizationModel, string> = {
  subscription: "Subscription",
  freemium: "Freemium",
  "one-time": "One-time purchase",
  usage: "Usage-based",
};

/** The 24 tech-stack choices of the filter. */
export const techStackChoices = [
  "React",
  "Next.js",
  "Vue",
  "Svelte",
  "Angular",
  "Tailwind CSS",
  "Node.js",
  "Express",
  "Python",
  "Django",
  "FastAPI",
  "Ruby on Rails",
  "PostgreSQL",
  "MySQL",
  "MongoDB",
  "Supabase",
  "Firebase",
  "Redis",
  "OpenAI API",
  "Anthropic Claude API",
  "LangChain",
  "Stripe",
  "AWS",
  "Vercel",
] as const;

export type IdeaFilters = {
  industry: string;
  targetAudience: string;
  problemToSolve: string;
  complexity: Complexity;
  monetizationModel: MonetizationModel;
  techStack: string[];
};

export type SaasIdea = {
  id: string;
  title: string;
  description: string;
  targetMarket: string;
  problemSolved: string;
  keyFeatures: string[];
  monetizationStrategy: string;
  estimatedDevTime: string;
  marketPotential: string;
  competitorAnalysis: string;
  techStack: string[];
};

/** Every field of an idea; each is filled in, in the tool and in its JSON export. */
export const ideaFields = [
  "id",
  "title",
  "description",
  "targetMarket",
  "problemSolved",
  "keyFeatures",
  "monetizationStrategy",
  "estimatedDevTime",
  "marketPotential",
  "competitorAnalysis",
  "techStack",
] as const satisfies readonly (keyof SaasIdea)[];

export const defaultFilters: IdeaFilters = {
  industry: "",
  targetAudience: "",
  problemToSolve: "",
  complexity: "medium",
  monetizationModel: "subscription",
  techStack: [],
};

/** Longest text a filter field takes. */
export const maxFilterLength = 100;

export const devTimeByComplexity: Record<Complexity, string> = {
  low: "1-2 months",
  medium: "3-4 months",
  high: "6-8 months",
};

/** FNV-1a hash of a string, as a 32-bit seed. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small deterministic generator of numbers in [0, 1). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: readonly T[], rand: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/** Short words a title keeps in lower case (except the first). */
const minorWords = new Set([
  "a",
  "an",
  "and",
  "as",
  "at",
  "for",
  "in",
  "of",
  "on",
  "or",
  "the",
  "to",
]);

const titleCase = (text: string) =>
  text
    .split(/\s+/)
    .filter(Boolean)
    .map((word, i) =>
      (word.length <= 3 && word === word.toUpperCase()) || (i > 0 && minorWords.has(word))
        ? word
        : word[0]?.toUpperCase() + word.slice(1),
    )
    .join(" ");

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A word typed with a capital only because it started the field: "Trainers", not "CFOs" or "SaaS". */
const capitalizedWord = /^[A-Z][a-z'’-]*$/;

/**
 * A member's free text as it reads inside a sentence: spaces collapsed, end
 * punctuation dropped, and the capitals of a typed Title Case ("Personal
 * Trainers") or of a first word ("Dentists in Texas") lowered; acronyms and
 * mixed case ("CFOs", "SaaS") stay as typed.
 */
export function inSentence(text: string): string {
  const words = text
    .trim()
    .replace(/[\s.!?;:,]+$/, "")
    .split(/\s+/)
    .filter(Boolean);
  const typedTitleCase = words.every((w) => capitalizedWord.test(w) || minorWords.has(w));
  return words
    .map((w, i) => ((typedTitleCase || i === 0) && capitalizedWord.test(w) ? w.toLowerCase() : w))
    .join(" ");
}

/** The industry's domain, and how its name reads inside a sentence. */
function domainFor(industry: string): { domain: Domain; field: string } {
  const key = industry.trim().toLowerCase();
  const known = domains[key];
  if (known) return { domain: known, field: known.label.toLowerCase() };
  const field = inSentence(industry);
  return {
    field,
    domain: {
      label: titleCase(field),
      records: `${field} records`,
      workflows: ["client onboarding", "reporting", "scheduling", "customer communication"],
      regulation: "role-based access and data export",
      incumbents: `general-purpose tools that were not designed for ${field}`,
      marketSize: `Businesses in ${field} are adopting AI tools quickly, and few products serve them specifically`,
    },
  };
}

function monetizationStrategy(model: MonetizationModel, complexity: Complexity): string {
  const scale = { low: 1, medium: 2, high: 4 }[complexity];
  switch (model) {
    case "subscription":
      return `Monthly subscription: Starter at $${9 * scale}/month, Pro at $${29 * scale}/month for power users, and an annual plan with two months free. Target 3-5% monthly churn by shipping the workflow features customers use every week.`;
    case "freemium":
      return `Freemium: a free plan with ${10 * scale} AI actions a month and the core workflow, then Pro at $${15 * scale}/month for unlimited use, history and exports. Aim for a 3-5% free-to-paid conversion and use the free plan as the main acquisition channel.`;
    case "one-time":
      return `One-time purchase: lifetime licence at $${49 * scale} (early-bird $${29 * scale}), with paid upgrade packs for major new features and an optional $${5 * scale}/month add-on to cover AI usage costs.`;
    case "usage":
      return `Usage-based pricing: pay-as-you-go credits at $0.${String(5 * scale).padStart(2, "0")} per AI action, bundles of 500 credits with a 20% discount, and 25 free credits at sign-up. Revenue grows with each customer's use and AI costs stay covered.`;
  }
}

function pickStack(filters: IdeaFilters, rand: () => number): string[] {
  const chosen = filters.techStack.filter((t) =>
    (techStackChoices as readonly string[]).includes(t),
  );
  if (chosen.length > 0) return chosen;
  const base = {
    low: ["React", "Supabase", "OpenAI API", "Stripe"],
    medium: ["Next.js", "PostgreSQL", "OpenAI API", "Stripe", "Vercel"],
    high: ["React", "Node.js", "PostgreSQL", "Redis", "LangChain", "Stripe", "AWS"],
  }[filters.complexity];
  const swap = shuffle(
    ["Tailwind CSS", "Anthropic Claude API", "Firebase", "FastAPI"],
    rand,
  )[0] as string;
  return [...base, swap];
}

/** Throws when a filter cannot be used (too long or an unknown option). */
export function validateFilters(filters: IdeaFilters): void {
  for (const field of ["industry", "targetAudience", "problemToSolve"] as const) {
    if (filters[field].length > maxFilterLength) {
      throw new Error(
        `The ${field === "targetAudience" ? "target audience" : field === "problemToSolve" ? "problem to solve" : "industry"} is longer than ${maxFilterLength} characters.`,
      );
    }
  }
  if (!complexities.includes(filters.complexity)) throw new Error("Unknown complexity.");
  if (!monetizationModels.includes(filters.monetizationModel))
    throw new Error("Unknown monetization model.");
}

/**
 * Five ideas built from the filters. The same filters and seed always give
 * the same ideas; every field is filled.
 */
export function generateIdeas(filters: IdeaFilters, seed: number, count = 5): SaasIdea[] {
  validateFilters(filters);
  const rand = random(hash(JSON.stringify(filters)) ^ seed);
  const { domain, field } = filters.industry.trim()
    ? domainFor(filters.industry)
    : (() => {
        const known = shuffle(Object.values(domains), rand)[0] as Domain;
        return { domain: known, field: known.label.toLowerCase() };
      })();
  // Free text is never the subject of a verb nor the object of a preposition it may not
  // fit ("struggle with clients skip workouts"): the audience is only ever "for ..." or a
  // noun phrase of its own, the problem only ever follows a colon.
  const typedAudience = inSentence(filters.targetAudience);
  const audience = typedAudience || `small ${field} businesses`;
  const inField = typedAudience ? ` in ${field}` : "";
  const workflows = shuffle(domain.workflows, rand);
  const productKinds = shuffle(products, rand);
  const typedProblem = inSentence(filters.problemToSolve);
  const problems = typedProblem ? [typedProblem] : shuffle(problemDefaults, rand);

  return Array.from({ length: count }, (_, i) => {
    const workflow = workflows[i % workflows.length] as string;
    const kind = productKinds[i % productKinds.length] as (typeof products)[number];
    const problem = problems[i % problems.length] as string;
    const title = `AI ${titleCase(workflow)} ${kind.noun}`;
    const share = 10 + Math.floor(rand() * 30);
    return {
      id: `idea-${(hash(`${seed}:${i}:${title}`) >>> 0).toString(36)}`,
      title,
      description: `${title} ${kind.verb} ${workflow} for ${audience}${inField}. It reads their ${domain.records}, suggests the next step and does the repetitive part of the work. Problem it tackles: ${problem}.`,
      targetMarket: `${capitalize(audience)}${inField}, starting with solo professionals and teams of up to 20 who handle ${workflow} themselves.`,
      problemSolved: `The problem: ${problem}. Doing ${workflow} by hand also takes hours every week, and ${title} cuts that work by about ${30 + share}%.`,
      keyFeatures: [
        `AI-generated drafts for ${workflow} from a short brief`,
        `Import of existing ${domain.records} in one click`,
        `Smart reminders and a weekly summary for ${audience}`,
        capitalize(domain.regulation),
        ...(filters.complexity === "low" ? [] : [`Team workspace with roles and shared templates`]),
        ...(filters.complexity === "high"
          ? [
              `Integrations and a public API for ${field} tools`,
              "Analytics dashboard with trends and forecasts",
            ]
          : []),
      ],
      monetizationStrategy: monetizationStrategy(filters.monetizationModel, filters.complexity),
      estimatedDevTime: devTimeByComplexity[filters.complexity],
      marketPotential: `${domain.marketSize}. Winning 1% of the customers who feel this pain supports a business of $${(20 + Math.floor(rand() * 80)) * (filters.complexity === "high" ? 10 : 1)}k+ a month.`,
      competitorAnalysis: `Today the options are ${domain.incumbents}, or spreadsheets and generic chatbots. An AI tool focused only on ${workflow} for ${audience}${inField} wins on speed to first result and a price about ${share}% lower.`,
      techStack: pickStack(filters, rand),
    };
  });
}

/** The ideas shown before the first generation and after a failure. */
export const sampleIdeas: readonly SaasIdea[] = [
  {
    id: "sample-email-assistant",
    title: "AI Email Assistant",
    description:
      "Drafts replies to customer e-mails in the user's own tone and sorts the inbox by urgency.",
    targetMarket:
      "Freelancers, consultants and small-business owners who answer 50+ e-mails a day.",
    problemSolved: "Hours lost every day writing routine replies and missing urgent messages.",
    keyFeatures: [
      "Reply drafts in three tones",
      "Urgency sorting",
      "Reusable snippets",
      "Gmail and Outlook connection",
    ],
    monetizationStrategy: monetizationStrategy("subscription", "medium"),
    estimatedDevTime: devTimeByComplexity.medium,
    marketPotential:
      "Over 300 billion e-mails are sent every day; professionals spend about 28% of their workweek on e-mail.",
    competitorAnalysis:
      "Large e-mail clients add generic AI features; a focused assistant wins on tone matching and price.",
    techStack: ["Next.js", "PostgreSQL", "OpenAI API", "Stripe", "Vercel"],
  },
  {
    id: "sample-background-remover",
    title: "AI Background Remover",
    description: "Removes image backgrounds in one click and exports product-ready photos.",
    targetMarket: "Online sellers and social-media managers.",
    problemSolved: "Editing product photos by hand is slow and photo editors are expensive.",
    keyFeatures: [
      "One-click background removal",
      "Batch upload",
      "Marketplace-ready sizes",
      "Brand colour backgrounds",
    ],
    monetizationStrategy: monetizationStrategy("usage", "low"),
    estimatedDevTime: devTimeByComplexity.low,
    marketPotential: "Millions of online stores need clean product images every week.",
    competitorAnalysis:
      "Existing tools charge per image at high prices; credit bundles undercut them.",
    techStack: ["React", "FastAPI", "Python", "AWS", "Stripe"],
  },
  {
    id: "sample-blog-writer",
    title: "AI Blog Content Writer",
    description: "Turns a topic and keywords into an outline and an SEO-friendly article.",
    targetMarket: "Small businesses and agencies that publish content for search traffic.",
    problemSolved:
      "Writing regular, search-optimised posts takes time most small teams do not have.",
    keyFeatures: [
      "Keyword-based outlines",
      "Full article drafts",
      "SEO score",
      "Export to WordPress",
    ],
    monetizationStrategy: monetizationStrategy("freemium", "medium"),
    estimatedDevTime: devTimeByComplexity.medium,
    marketPotential:
      "Content marketing is a $400B+ industry and most small businesses publish irregularly.",
    competitorAnalysis:
      "Big AI writing suites are general-purpose; a blog-first workflow is simpler.",
    techStack: ["Next.js", "Supabase", "OpenAI API", "Stripe"],
  },
  {
    id: "sample-podcast-transcriber",
    title: "AI Podcast Transcriber",
    description: "Creates timestamped transcripts, show notes and social clips from an episode.",
    targetMarket: "Independent podcasters and small media teams.",
    problemSolved: "Turning each episode into written content takes hours of manual work.",
    keyFeatures: ["Timestamped transcripts", "Show notes", "Clip suggestions", "Speaker labels"],
    monetizationStrategy: monetizationStrategy("usage", "medium"),
    estimatedDevTime: devTimeByComplexity.medium,
    marketPotential: "There are over 4 million podcasts and most have no written content.",
    competitorAnalysis:
      "Transcription services stop at text; bundling show notes and clips adds value.",
    techStack: ["React", "Node.js", "PostgreSQL", "OpenAI API", "AWS"],
  },
  {
    id: "sample-code-assistant",
    title: "AI Code Review Assistant",
    description: "Reviews pull requests and explains issues in plain language.",
    targetMarket: "Small development teams and agencies.",
    problemSolved: "Code reviews are slow and junior developers wait for feedback.",
    keyFeatures: [
      "Automatic pull request review",
      "Plain-language explanations",
      "Security checks",
      "Team rules",
    ],
    monetizationStrategy: monetizationStrategy("subscription", "high"),
    estimatedDevTime: devTimeByComplexity.high,
    marketPotential:
      "There are nearly 30 million developers and review time is a known bottleneck.",
    competitorAnalysis: "Enterprise tools are costly; a simple per-seat plan suits small teams.",
    techStack: ["React", "Node.js", "PostgreSQL", "Redis", "Anthropic Claude API", "Stripe"],
  },
];

/** A file-name-safe slug: 'AI Email Assistant' -> 'ai-email-assistant'. */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug || "idea";
}

/** Text as Markdown shows it literally: its markup characters escaped. */
function markdownText(text: string): string {
  return text
    .replace(/[\\`*_{}[\]<>()#+!|~]/g, "\\$&")
    .replace(/^(\s*)([-=])/gm, "$1\\$2")
    .replace(/^(\s*\d+)\./gm, "$1\\.");
}

/** An idea as a Markdown document: its title, description, then one section per field. */
export function ideaToMarkdown(idea: SaasIdea): string {
  const section = (title: string, value: string | string[]) =>
    `## ${title}\n\n${
      Array.isArray(value)
        ? value.map((v) => `- ${markdownText(v)}`).join("\n")
        : markdownText(value)
    }\n`;
  return [
    `# ${markdownText(idea.title)}\n`,
    `${markdownText(idea.description)}\n`,
    section("Target market", idea.targetMarket),
    section("Problem solved", idea.problemSolved),
    section("Key features", idea.keyFeatures),
    section("Monetization strategy", idea.monetizationStrategy),
    section("Estimated development time", idea.estimatedDevTime),
    section("Market potential", idea.marketPotential),
    section("Competitor analysis", idea.competitorAnalysis),
    section("Tech stack", idea.techStack),
  ].join("\n");
}
