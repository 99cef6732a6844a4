import { Link } from "react-router";
import { BuildTerminal } from "~/components/marketing/build-terminal";
import { BenefitCards, cta, LearningList, OfferCard } from "~/components/marketing/home-sections";
import { homeDisclaimer } from "~/content/home";
import { Island } from "~/islands/island";
import { pageMetaFor } from "~/lib/seo";
import type { RouteHandle } from "~/root";
import { offerLoader } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/home";

export const loader = offerLoader;

/** Visitors get the HTML and two islands: the build terminal and the cookie banner. */
export const handle: RouteHandle = { hydrate: "islands" };

export const meta: Route.MetaFunction = () => pageMetaFor("/");

export default function Home() {
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
        <BenefitCards />
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
            <LearningList />
          </div>

          <OfferCard />
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
        <p className="mt-2 text-sm text-slate-600">{homeDisclaimer}</p>
      </section>
    </main>
  );
}
