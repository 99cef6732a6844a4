import { Link } from "react-router";
import { BuildTerminal } from "~/components/marketing/build-terminal";
import { formatUsd, lifetimeAccess, site } from "~/config/site";
import { Island } from "~/islands/island";
import { pageMeta } from "~/lib/seo";
import type { RouteHandle } from "~/root";

/** Visitors get the HTML and two islands: the build terminal and the cookie banner. */
export const handle: RouteHandle = { hydrate: "islands" };

export const meta = () =>
  pageMeta({
    title: `${site.brand}: Build and launch AI SaaS apps without writing code`,
    description:
      "Turn a written prompt into a working AI SaaS app, launch it in 7 days and start earning. A complete course and toolkit: one payment, lifetime access.",
    path: "/",
  });

const benefits = [
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

const learningList = [
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

const cta =
  "inline-flex items-center justify-center rounded-lg px-6 py-3 text-base font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-offset-2";

export default function Home() {
  const plan = lifetimeAccess;
  return (
    <main>
      <section className="bg-gradient-to-b from-indigo-900 via-indigo-900 to-slate-900 px-4 pt-14 pb-20 text-white sm:pt-20">
        <div className="mx-auto grid max-w-6xl items-center gap-12 lg:grid-cols-2">
          <div className="min-w-0 text-center lg:text-left">
            <p className="inline-block rounded-full bg-white/10 px-3 py-1 text-xs font-medium text-indigo-100 sm:text-sm">
              No coding needed · One payment, lifetime access
            </p>
            <h1 className="mt-5 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">
              Build and launch your own AI SaaS app without writing code
            </h1>
            <p className="mx-auto mt-6 max-w-xl text-lg text-indigo-100 lg:mx-0">
              Write what you want in plain English, watch AI build it, and launch it in 7 days. The
              course shows you how to turn that app into a business that earns every month.
            </p>
            <div className="mt-8">
              <Link
                to="/login"
                className={`${cta} bg-white text-indigo-900 hover:bg-indigo-50 focus-visible:ring-white focus-visible:ring-offset-indigo-900`}
              >
                Start Learning
              </Link>
            </div>
          </div>
          <Island name="build-terminal" component={BuildTerminal} props={{}} />
        </div>
      </section>

      <section aria-labelledby="benefits-heading" className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
        <h2
          id="benefits-heading"
          className="text-center text-3xl font-bold tracking-tight text-balance"
        >
          Everything you need to go from idea to income
        </h2>
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {benefits.map((b) => (
            <li
              key={b.title}
              className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
            >
              <span className="inline-flex h-11 w-11 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700">
                <svg
                  aria-hidden="true"
                  viewBox="0 0 24 24"
                  className="h-6 w-6"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.5"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                >
                  <path d={b.icon} />
                </svg>
              </span>
              <h3 className="mt-4 text-xl font-semibold">{b.title}</h3>
              <p className="mt-2 text-slate-600">{b.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="learn-heading" className="bg-white px-4 py-16 sm:py-20">
        <div className="mx-auto grid max-w-6xl gap-12 lg:grid-cols-[1fr_26rem] lg:items-start">
          <div>
            <h2 id="learn-heading" className="text-3xl font-bold tracking-tight">
              What you will learn
            </h2>
            <p className="mt-3 text-slate-600">
              Step-by-step lessons written for people who have never coded, in the order you need
              them.
            </p>
            <ol className="mt-8 grid gap-3 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
              {learningList.map((item, i) => (
                <li key={item} className="flex gap-3 rounded-lg bg-slate-50 p-4">
                  <span
                    aria-hidden="true"
                    className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-sm font-semibold text-white"
                  >
                    {i + 1}
                  </span>
                  <span>{item}</span>
                </li>
              ))}
            </ol>
          </div>

          <section
            aria-labelledby="offer-heading"
            className="rounded-2xl border-2 border-indigo-600 bg-white p-6 shadow-lg sm:p-8"
          >
            <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">
              Launch price
            </p>
            <h2 id="offer-heading" className="mt-1 text-2xl font-bold">
              {plan.name}
            </h2>
            <p className="mt-4 flex items-baseline gap-3">
              <span className="text-5xl font-extrabold tracking-tight">
                {formatUsd(plan.amountCents)}
              </span>
              <s className="text-xl text-slate-500">
                <span className="sr-only">Regular price </span>
                {formatUsd(plan.regularAmountCents)}
              </s>
            </p>
            <p className="mt-2 text-sm text-slate-600">
              One-time payment. The price will rise to {formatUsd(plan.regularAmountCents)}.
            </p>
            <ul className="mt-6 space-y-2">
              {plan.benefits.map((b) => (
                <li key={b} className="flex gap-2">
                  <svg
                    aria-hidden="true"
                    viewBox="0 0 20 20"
                    className="mt-0.5 h-5 w-5 shrink-0 fill-green-600"
                  >
                    <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z" />
                  </svg>
                  {b}
                </li>
              ))}
            </ul>
            <Link
              to="/signup"
              className={`${cta} mt-8 w-full bg-indigo-600 text-white hover:bg-indigo-700 focus-visible:ring-indigo-500`}
            >
              Get Lifetime Access
            </Link>
            <p className="mt-3 text-center text-sm text-slate-600">
              30-day money-back guarantee. No questions asked.
            </p>
          </section>
        </div>
      </section>

      <section
        aria-labelledby="closing-heading"
        className="bg-indigo-900 px-4 py-16 text-center text-white sm:py-20"
      >
        <h2 id="closing-heading" className="text-3xl font-bold tracking-tight text-balance">
          Your first AI SaaS app is one prompt away
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-indigo-100">
          Join today, build along with the lessons and have your app live within a week.
        </p>
        <Link
          to="/login"
          className={`${cta} mt-8 bg-white text-indigo-900 hover:bg-indigo-50 focus-visible:ring-white focus-visible:ring-offset-indigo-900`}
        >
          Get Started Today
        </Link>
      </section>

      <section aria-labelledby="disclaimer-heading" className="mx-auto max-w-4xl px-4 pt-12">
        <h2 id="disclaimer-heading" className="text-sm font-semibold text-slate-700">
          Earnings disclaimer
        </h2>
        <p className="mt-2 text-sm text-slate-600">
          We make every effort to represent this course and its potential accurately. Any earnings,
          conversion rates or results mentioned are examples, not a promise or guarantee that you
          will earn anything. Your results depend on your idea, effort, experience and market, and
          many people who buy a course earn nothing from it. Building and selling software carries
          risk; use your own judgement before spending money on tools or advertising.
        </p>
      </section>
    </main>
  );
}
