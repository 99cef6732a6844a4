import { loopingDemoTiming, salesDemoTiming } from "~/components/marketing/build-demo-timeline";
import type { SalesVariant } from "~/components/marketing/sales-page";
import { formatUsd, salesFunnel } from "~/config/site";

/** Copy of the two marketplace sales pages (/ailabs-offer, /ailabs-offer2). */

export type FaqEntry = { question: string; answer: string };

const { bonusValuesCents: values, guaranteeDays } = salesFunnel;

export const story: readonly string[] = [
  "A year ago, building software meant one of two things: learn to code for a year or pay a developer five figures and hope. Most people with a good idea did neither, and the idea died in a notes app.",
  "That changed when AI learned to write working code from plain English. Today you can describe an app in a paragraph and watch it take shape in minutes. The hard part is no longer the building. It is knowing what to build, how to connect it to AI, how to charge for it and how to get the first paying users.",
  "That is exactly what AI Labs teaches. We packed the whole path into one course and toolkit: from a written prompt to a live AI SaaS app that takes payments, with a 7-day launch formula you can follow even if you have never written a line of code.",
];

export const productIntro = {
  title: "Introducing AI Labs",
  text: "The complete course and toolkit for building, launching and earning from AI software-as-a-service apps without coding. Lifetime access, paid once: full membership and training, a ready-made software boilerplate, an idea generator and everything you need to go from idea to income.",
};

export const discoveries: readonly { title: string; text: string }[] = [
  {
    title: "The 7-day launch formula",
    text: "A day-by-day plan that takes you from a blank page to a live, paid AI app in one week.",
  },
  {
    title: "Prompt-to-app building",
    text: "How to write the prompt that turns a plain-English description into a working application.",
  },
  {
    title: "GPT API integration, demystified",
    text: "Connect your app to AI models safely, keep your keys private and your costs predictable.",
  },
  {
    title: "Payments from day one",
    text: "Add checkout and subscriptions so your app can earn from its very first user.",
  },
  {
    title: "The 23% conversion playbook",
    text: "The free-to-paid funnel behind a 23% conversion rate, step by step.",
  },
  {
    title: "Ideas people pay for",
    text: "Use the business idea generator to find problems worth solving before you build anything.",
  },
  {
    title: "Your launch strategy",
    text: "A launch framework and marketing toolkit to get your first customers without an ad budget.",
  },
  {
    title: "A community and lifetime updates",
    text: "Private community access and every future lesson and template, at no extra cost.",
  },
];

export const bonuses: readonly { title: string; text: string; value: string }[] = [
  {
    title: "Todo List SaaS Boilerplate",
    text: "A complete, working SaaS starter: user accounts, a React front end, a back end with its database schema and branding options. Download it, rename it, launch it.",
    value: formatUsd(values.boilerplate),
  },
  {
    title: "30-Day Launch Plan",
    text: "What to do every day for your first month after launch, from the first announcement to your first hundred users.",
    value: formatUsd(values.launchPlan),
  },
  {
    title: "AI Prompt Engineering Vault",
    text: "Tested prompts for marketing and sales copy, product development, UI/UX design descriptions and technical documentation.",
    value: formatUsd(values.promptVault),
  },
  {
    title: "Private Builders Community",
    text: "A private Discord for AI Labs members: feedback on your app, launch support and people who are building too.",
    value: `${formatUsd(values.communityPerYear)}/year`,
  },
];

export const testimonials: readonly { quote: string; name: string; role: string }[] = [
  {
    quote:
      "I am a marketer, not a developer. I followed the 7-day formula to the letter and launched a small AI copywriting tool on day six. Seeing the first payment notification come in was surreal.",
    name: "Sarah M.",
    role: "Marketing consultant",
  },
  {
    quote:
      "The boilerplate alone saved me weeks. The lessons on pricing and the free-to-paid funnel were what I had been missing in every other course I bought.",
    name: "David R.",
    role: "First-time founder",
  },
];

export const guarantee = {
  title: `${guaranteeDays}-Day Money-Back Guarantee`,
  text: `Try AI Labs for a full ${guaranteeDays} days. If it is not for you, e-mail our support team and you get every cent back. No questions asked, and you keep what you learned.`,
};

export const salesFaq: readonly FaqEntry[] = [
  {
    question: "Do I need any coding experience?",
    answer:
      "No. AI Labs is made for non-technical people. You describe what you want in plain English and the course shows you, click by click, how to turn that into a working app.",
  },
  {
    question: "How do I get access after I buy?",
    answer:
      "Your login details are e-mailed to you within about 5 minutes of your purchase. If you cannot find them, check your spam folder, then contact support.",
  },
  {
    question: "Is this a one-time payment?",
    answer:
      "Yes. You pay once and keep lifetime access to the course, the toolkit and every future update. There is no subscription.",
  },
  {
    question: "What if it is not right for me?",
    answer: `You are covered by our ${guaranteeDays}-day money-back guarantee. E-mail support within ${guaranteeDays} days of your purchase and we refund you in full, no questions asked.`,
  },
];

/** The sales-page build demo: five steps, each with the terminal line it prints when it starts and ends. */
export const buildDemoSteps: readonly { label: string; running: string; done: string }[] = [
  {
    label: "Initializing project structure",
    running: "$ ailabs create my-ai-saas",
    done: "✓ Project structure ready",
  },
  {
    label: "Setting up GPT API integration",
    running: "$ ailabs connect --model gpt",
    done: "✓ GPT API connected",
  },
  {
    label: "Creating user interface components",
    running: "$ ailabs generate ui",
    done: "✓ 14 components generated",
  },
  {
    label: "Implementing payment system",
    running: "$ ailabs add payments",
    done: "✓ Checkout and subscriptions live",
  },
  {
    label: "Finalizing and optimizing code",
    running: "$ ailabs build --production",
    done: "✓ Build optimized and ready",
  },
];

/** Prompts the second sales page rotates through, one per demo run. */
export const demoPrompts: readonly string[] = [
  "An AI e-mail assistant that drafts replies in my tone of voice",
  "An image background remover for online shop product photos",
  "A blog content writer that turns a keyword into a full article",
  "A podcast transcription tool with show notes and chapters",
  "A code assistant that explains and fixes code snippets",
];

export const earningsDisclaimer =
  "Earnings disclaimer: we make every effort to represent this product and its potential accurately. Any figures, conversion rates or results mentioned are examples, not a promise or guarantee of earnings. Your results depend on your idea, your effort, your market and many factors outside our control. Most people who buy any course get little or no result. Use caution and seek the advice of qualified professionals before making financial decisions.";

/** What differs between the two sales pages: price, headline and the build demo. */
export const salesVariants = {
  "/ailabs-offer": {
    offer: "plan",
    headline: "Build and Launch Your Own AI SaaS App in 7 Days, Without Writing Code",
    subheadline:
      "The step-by-step course and toolkit that takes you from a written prompt to a live AI app that takes payments, even if you have never coded before.",
    demoTiming: salesDemoTiming,
    demoPrompts: demoPrompts.slice(0, 1),
  },
  "/ailabs-offer2": {
    offer: "offer2",
    headline: "Turn One Written Prompt Into an AI App People Pay For",
    subheadline:
      "AI Labs shows non-coders how to build, launch and earn from AI software-as-a-service apps with a proven 7-day launch formula.",
    demoTiming: loopingDemoTiming,
    demoPrompts,
  },
} as const satisfies Record<string, SalesVariant>;
