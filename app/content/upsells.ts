import type { FeatureIconName } from "~/components/marketing/feature-icon";
import { formatUsd, salesFunnel } from "~/config/site";
import type { PublicOffer } from "~/lib/offer";
import type { FaqEntry } from "./sales";

/** Copy of the upgrade pages: /upgrades, /white-label-upsell, /custom-saas-upsell, /custom-saas-thank-you. */

const { coaching, guaranteeDays } = salesFunnel;

export const whiteLabelFeatures: readonly {
  icon: FeatureIconName;
  title: string;
  description: string;
}[] = [
  {
    icon: "tools",
    title: "12 ready-made AI tools",
    description:
      "Twelve complete AI SaaS apps, each one a product you can put your own name on and sell.",
  },
  {
    icon: "code",
    title: "Full source code",
    description:
      "Every line of code is yours to change, extend, rebrand and host wherever you like.",
  },
  {
    icon: "megaphone",
    title: "Marketing pack",
    description:
      "Sales page copy, e-mail sequences and social posts written for each tool, ready to paste.",
  },
  {
    icon: "video",
    title: "Video tutorials",
    description:
      "Step-by-step videos on installing, branding and launching each tool, no coding required.",
  },
  {
    icon: "card",
    title: "Payment-platform integration",
    description:
      "Connect your payment platform once and start charging subscriptions or one-time fees.",
  },
  {
    icon: "rocket",
    title: "Business flexibility",
    description:
      "Sell the tools as subscriptions, bundle them for clients or run them as your own agency service.",
  },
];

export const whiteLabelTools: readonly string[] = [
  "Content Generator",
  "Image Creator",
  "Chatbot Assistant",
  "Email Writer",
  "SEO Optimizer",
  "Social Media Manager",
  "Video Script Generator",
  "Product Description Writer",
  "Landing Page Builder",
  "Business Name Generator",
  "Ad Copy Creator",
  "Market Research Tool",
];

export const whiteLabelFaq: readonly FaqEntry[] = [
  {
    question: "What does white label mean here?",
    answer:
      "You can remove our branding, put your own name and logo on all 12 tools and sell them as your own products. Your customers never see AI Labs.",
  },
  {
    question: "Do I need technical skills to set the tools up?",
    answer:
      "No. Each tool comes with a video tutorial that walks you through installing, branding and launching it, click by click.",
  },
  {
    question: "Can I keep all the money I make?",
    answer:
      "Yes. You set your own prices and every sale goes straight to your payment account. We take no commission and charge no monthly fee.",
  },
  {
    question: "Is this a one-time payment?",
    answer:
      "Yes. You pay once today and keep lifetime access to all 12 tools, their source code, the marketing pack and every future update.",
  },
  {
    question: "What if I change my mind?",
    answer: `This upgrade carries the same ${guaranteeDays}-day money-back guarantee as AI Labs. E-mail support within ${guaranteeDays} days and we refund you in full.`,
  },
];

export const coachingJourney: readonly { title: string; description: string }[] = [
  {
    title: "Apply and book your strategy call",
    description: `Apply today. We review every application within ${coaching.reviewHours} hours and book your first session.`,
  },
  {
    title: "Plan your product together",
    description:
      "We shape your idea into a clear feature list, design and launch plan in 1-on-1 sessions.",
  },
  {
    title: "We build your custom AI SaaS",
    description: `Our team builds your app in focused sprints, with up to ${coaching.revisionRounds} revision rounds on every deliverable.`,
  },
  {
    title: "Launch and grow with support",
    description: `We deploy your app, hand you the keys and support you for ${coaching.supportDays} days after launch.`,
  },
];

/** DIY against the package: the table reads 2-4 weeks, the FAQ 4-6 weeks (both are given). */
export const coachingComparison: readonly { aspect: string; diy: string; withUs: string }[] = [
  { aspect: "Time to launch", diy: "Months of trial and error", withUs: "2-4 weeks" },
  {
    aspect: "Technical skills",
    diy: "You learn everything yourself",
    withUs: "None needed: we build it",
  },
  { aspect: "Product design", diy: "Guesswork", withUs: "Planned with you 1-on-1" },
  {
    aspect: "Revisions",
    diy: "Start over when it breaks",
    withUs: `Up to ${coaching.revisionRounds} rounds per deliverable`,
  },
  {
    aspect: "Support after launch",
    diy: "Forums and search results",
    withUs: `${coaching.supportDays} days of direct support`,
  },
  { aspect: "Coaching", diy: "None", withUs: "Personal 1-on-1 sessions" },
];

/** The coaching page's questions, with the cap of clients at a time (an offer setting). */
export const coachingFaq = (clientCap: number): readonly FaqEntry[] => [
  {
    question: "How long does the project take?",
    answer:
      "Most projects take 4-6 weeks from the first call to launch, depending on the features you choose and how quickly you review each deliverable.",
  },
  {
    question: `Why only ${clientCap} clients?`,
    answer: `Every project gets senior attention and personal coaching. To keep that promise we take on no more than ${clientCap} clients at a time.`,
  },
  {
    question: "What happens after I apply?",
    answer: `We review your application within ${coaching.reviewHours} hours and contact you to book your strategy call. If we are not the right fit for your idea, we tell you and refund you in full.`,
  },
  {
    question: "How many revisions do I get?",
    answer: `Up to ${coaching.revisionRounds} revision rounds on every deliverable, from the first design to the finished app.`,
  },
  {
    question: "Who owns the finished app?",
    answer:
      "You do. You receive the full source code and every account is set up in your name, so the app and its income are entirely yours.",
  },
];

export const thankYouPreparation: readonly { title: string; description: string }[] = [
  {
    title: "Your vision document",
    description:
      "One or two pages on what your app does, who it is for, the problem it solves and how you plan to charge.",
  },
  {
    title: "Your schedule availability",
    description: "A few time slots over the next two weeks for your initial consultation.",
  },
  {
    title: "Your technical environment (optional)",
    description:
      "Any domains, existing accounts, tools or code you already have and want us to use.",
  },
  {
    title: "Your hosting preferences",
    description: "Where you would like the app to live, or tell us and we will recommend a setup.",
  },
  {
    title: "Your content planning",
    description: "Your brand name, logo, colours and the text you want on the app's pages.",
  },
];

export const thankYouSteps: readonly { title: string; duration: string; description: string }[] = [
  {
    title: "Initial consultation",
    duration: "1-2 hours",
    description:
      "We walk through your vision document, agree the features and set the project plan.",
  },
  {
    title: "Design and architecture",
    duration: "1-2 sessions",
    description:
      "Together we settle the screens, the user journey and the technical design of your app.",
  },
  {
    title: "Development sprints",
    duration: "Weekly check-ins",
    description: `We build in short sprints and show you progress each time, with up to ${coaching.revisionRounds} revision rounds per deliverable.`,
  },
  {
    title: "Deployment and launch",
    duration: "Launch week",
    description:
      "We put your app live on your hosting, connect payments and run the final checks with you.",
  },
  {
    title: "Post-launch support",
    duration: `${coaching.supportDays} days`,
    description: "We fix issues, answer questions and coach you through your first customers.",
  },
];

const { noThanksUrls } = salesFunnel;

/** The buy button and No Thanks link of /white-label-upsell (the buy link and price: offer settings). */
export const whiteLabelCta = (offer: PublicOffer) => ({
  product: "white-label" as const,
  buyLink: "whiteLabelUrl" as const,
  buyLabel: `Yes, Upgrade My Order for ${formatUsd(offer.whiteLabelPriceCents)}`,
  noThanksHref: noThanksUrls.whiteLabel,
  noThanksLabel: "No Thanks, I don't want my own 12 AI tools",
});

/** The apply button (on the marketplace: a new tab) and No Thanks link of /custom-saas-upsell. */
export const coachingCta = (offer: PublicOffer) => ({
  product: "custom-saas" as const,
  buyLink: "customSaasUrl" as const,
  buyLabel: `Apply Now for ${formatUsd(offer.customSaasPriceCents)}`,
  newTab: true,
  noThanksHref: noThanksUrls.coaching,
  noThanksLabel: "No Thanks, I'll build everything on my own",
});
