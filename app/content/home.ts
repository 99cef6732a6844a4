// Copy of the home page (/): the benefit cards, the learning list and the disclaimer.

/** The three cards under the hero. */
export const benefits = [
  {
    title: "AI-First Development",
    text: "Describe the app you want in plain English and let AI write the code. You decide what to build; the tools do the typing, so you never need to learn a programming language.",
    icon: "M9.75 3.1v5.7a2.25 2.25 0 0 1-.66 1.6L5 14.5M9.75 3.1a24.3 24.3 0 0 1 4.5 0m-4.5 0c-.25.02-.5.05-.75.08m5.25-.08v5.7c0 .6.24 1.17.66 1.6L19.8 15.3M14.25 3.1c.25.02.5.05.75.08M19.8 15.3l-1.57.4a9.03 9.03 0 0 1-6.09-.72l-.28-.14a9.03 9.03 0 0 0-6.08-.72L5 14.5m14.8.8 1.4 1.4c1.23 1.23.65 3.33-1.07 3.62A48.3 48.3 0 0 1 12 21a48.3 48.3 0 0 1-8.13-.68c-1.72-.29-2.3-2.39-1.07-3.62L5 14.5",
  },
  {
    title: "Launch Strategy",
    text: "Follow the 7-day launch formula from first idea to first paying customers: validate the idea, build it, price it and put it in front of the people who need it.",
    icon: "M15.59 14.37a6 6 0 0 1-5.84 7.38v-4.8m5.84-2.58a14.98 14.98 0 0 0 6.16-12.12A14.98 14.98 0 0 0 9.63 8.41m5.96 5.96a14.93 14.93 0 0 1-5.84 2.58m0 0a15 15 0 0 1-.3.06 15 15 0 0 1-3.13-3.13l.06-.3m3.37 3.37-3.37-3.37m-.06.3a6 6 0 0 0-7.38 5.84h4.8m2.58-5.84a14.93 14.93 0 0 1 2.58-5.84",
  },
  {
    title: "Monetization",
    text: "Turn users into recurring revenue with subscriptions, free trials and pricing that converts: the same playbook behind a 23% free-to-paid conversion rate.",
    icon: "M12 6v12m-3-2.82.88.66c1.17.88 3.07.88 4.24 0 1.17-.88 1.17-2.3 0-3.18C13.54 12.22 12.77 12 12 12c-.73 0-1.45-.22-2-.66-1.1-.88-1.1-2.3 0-3.18s2.9-.88 4 0l.42.33M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z",
  },
] as const;

/** "What you will learn", in course order. */
export const learningList = [
  "How to turn one written prompt into a working AI SaaS app",
  "How to find a profitable idea with the business idea generator",
  "How to connect AI models to the features your customers pay for",
  "How to add sign-in, user accounts and a database without code",
  "How to take payments with one-time prices and subscriptions",
  "How to design a clean, mobile-friendly interface people enjoy using",
  "The 7-day launch formula: from idea to your first paying customers",
  "Pricing and free-trial tactics that turn free users into customers",
  "How to market your app and grow recurring monthly revenue",
] as const;

/** The home page's earnings disclaimer (the sales pages use `earningsDisclaimer` in sales.ts). */
export const homeDisclaimer =
  "We make every effort to represent this course and its potential accurately. Any earnings, conversion rates or results mentioned are examples, not a promise or guarantee that you will earn anything. Your results depend on your idea, effort, experience and market, and many people who buy a course earn nothing from it. Building and selling software carries risk; use your own judgement before spending money on tools or advertising.";
