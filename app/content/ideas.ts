// Data of the SaaS idea generator (/app-idea-generator): what each industry's
// ideas talk about, the fallback problems and the product kinds. The generator
// and its sample ideas are app/lib/ideas.ts.

/** What each industry's ideas talk about; others fall back to the industry's own name. */
export type Domain = {
  label: string;
  records: string;
  workflows: readonly string[];
  regulation: string;
  incumbents: string;
  marketSize: string;
};

export const domains: Record<string, Domain> = {
  healthcare: {
    label: "Healthcare",
    records: "patient notes",
    workflows: [
      "appointment scheduling",
      "clinical documentation",
      "insurance paperwork",
      "patient follow-ups",
    ],
    regulation: "HIPAA-ready data handling and audit logs",
    incumbents: "large EHR vendors whose tools are built for hospitals, not small practices",
    marketSize:
      "Healthcare software spending grows about 15% a year and admin work eats a third of clinicians' time",
  },
  education: {
    label: "Education",
    records: "lesson plans",
    workflows: [
      "lesson planning",
      "grading and feedback",
      "parent communication",
      "student progress tracking",
    ],
    regulation: "FERPA and COPPA-aware privacy settings",
    incumbents: "learning-management systems that schools buy but teachers find slow",
    marketSize:
      "EdTech is a $300B+ market and teachers spend 5+ hours a week on planning and grading",
  },
  finance: {
    label: "Finance",
    records: "transactions",
    workflows: ["expense categorisation", "invoicing", "cash-flow forecasting", "tax preparation"],
    regulation: "bank-grade encryption and read-only account connections",
    incumbents: "accounting suites that are powerful but built for accountants",
    marketSize: "Small-business finance tools are a $10B+ segment with high willingness to pay",
  },
  marketing: {
    label: "Marketing",
    records: "campaigns",
    workflows: [
      "content creation",
      "social scheduling",
      "ad copy testing",
      "performance reporting",
    ],
    regulation: "brand-voice controls and approval workflows",
    incumbents: "all-in-one suites priced for large teams",
    marketSize:
      "Marketing technology passes $500B worldwide and AI content tools are its fastest-growing part",
  },
  "real estate": {
    label: "Real estate",
    records: "listings",
    workflows: ["listing descriptions", "lead follow-up", "showing scheduling", "market reports"],
    regulation: "fair-housing language checks",
    incumbents: "CRM platforms that agents pay for but rarely use fully",
    marketSize: "There are 1.5M+ agents in the US alone, most working as one-person businesses",
  },
  "e-commerce": {
    label: "E-commerce",
    records: "product listings",
    workflows: [
      "product descriptions",
      "customer support replies",
      "inventory forecasting",
      "review analysis",
    ],
    regulation: "marketplace policy checks",
    incumbents: "platform apps that each solve one small piece",
    marketSize: "Millions of independent online stores need content and support at scale",
  },
  legal: {
    label: "Legal",
    records: "contracts",
    workflows: ["contract review", "client intake", "document drafting", "deadline tracking"],
    regulation: "confidentiality controls and no training on client data",
    incumbents: "enterprise legal tools priced out of reach of solo lawyers",
    marketSize: "Legal tech is a $25B+ market with solo and small firms largely underserved",
  },
  fitness: {
    label: "Fitness",
    records: "workout logs",
    workflows: ["program design", "client check-ins", "nutrition planning", "progress tracking"],
    regulation: "health-data consent settings",
    incumbents: "generic workout apps that do not support coaches",
    marketSize: "Online coaching keeps growing with 400k+ personal trainers in the US",
  },
};

/** Problems an idea solves when the member names none. */
export const problemDefaults = [
  "spending hours on repetitive admin work",
  "losing leads because follow-ups fall through the cracks",
  "producing quality content fast enough",
  "making sense of scattered data",
  "keeping clients informed without constant messages",
];

/** The kinds of product an idea can be, and what each does. */
export const products = [
  { noun: "Assistant", verb: "drafts and automates" },
  { noun: "Copilot", verb: "guides and speeds up" },
  { noun: "Insights Hub", verb: "analyses and reports on" },
  { noun: "Autopilot", verb: "automates" },
  { noun: "Studio", verb: "creates and polishes" },
  { noun: "Tracker", verb: "tracks and flags issues in" },
  { noun: "Planner", verb: "plans and schedules" },
] as const;
