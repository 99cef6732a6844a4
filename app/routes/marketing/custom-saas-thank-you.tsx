import { MarketingFooter } from "~/components/marketing/marketing-footer";
import { salesFunnel } from "~/config/site";
import { thankYouPreparation, thankYouSteps } from "~/content/upsells";
import { pageMeta } from "~/lib/seo";
import type { RouteHandle } from "~/root";
import type { Route } from "./+types/custom-saas-thank-you";

/** This page renders its own footer with the earnings disclaimer. */
export const handle: RouteHandle = { ownFooter: true };

const { chat, messaging } = salesFunnel.contactHandles;

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Thank You: Your Custom AI SaaS Partnership Is Active | AI Labs",
    description:
      "Your order is confirmed. Contact the team with your order number, prepare your vision document and see what happens next in your custom AI SaaS development partnership.",
    path: "/custom-saas-thank-you",
  });

export default function CustomSaasThankYou() {
  return (
    <>
      <main className="bg-white">
        <section className="bg-gradient-to-b from-emerald-700 to-emerald-900 px-4 py-14 text-center text-white sm:py-20">
          <span
            aria-hidden="true"
            className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-white text-3xl font-black text-emerald-700"
          >
            ✓
          </span>
          <h1 className="mt-6 text-4xl font-black tracking-tight sm:text-5xl">
            Thank You! Your Order Is Confirmed
          </h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-emerald-50">
            Your custom AI SaaS development partnership is now active. Here is how to reach the
            team, what to prepare and what happens next.
          </p>
        </section>

        <section aria-labelledby="contact-title" className="px-4 py-14">
          <div className="mx-auto max-w-4xl">
            <h2 id="contact-title" className="text-center text-3xl font-extrabold tracking-tight">
              Step 1: Contact us to book your first session
            </h2>
            <p className="mx-auto mt-3 max-w-2xl text-center text-slate-600">
              Message us on either channel and include your <strong>order number</strong> from your
              confirmation e-mail, so we can match you to your order straight away.
            </p>
            <div className="mt-8 grid gap-5 sm:grid-cols-2">
              <div className="rounded-2xl border border-slate-200 p-6 text-center">
                <h3 className="text-lg font-bold">{chat.service}</h3>
                <p className="mt-2 font-mono text-xl font-semibold text-indigo-700">
                  {chat.handle}
                </p>
                <p className="mt-2 text-sm text-slate-600">
                  Add us as a friend and send your order number in your first message.
                </p>
              </div>
              <div className="rounded-2xl border border-slate-200 p-6 text-center">
                <h3 className="text-lg font-bold">{messaging.service}</h3>
                <a
                  href={messaging.url}
                  className="mt-2 inline-block font-mono text-xl font-semibold text-indigo-700 underline"
                >
                  {messaging.handle}
                </a>
                <p className="mt-2 text-sm text-slate-600">
                  Start a chat and include your order number in your first message.
                </p>
              </div>
            </div>
          </div>
        </section>

        <section aria-labelledby="prepare-title" className="bg-slate-50 px-4 py-14">
          <div className="mx-auto max-w-4xl">
            <h2 id="prepare-title" className="text-center text-3xl font-extrabold tracking-tight">
              Step 2: Prepare for your consultation
            </h2>
            <ul className="mt-8 space-y-4">
              {thankYouPreparation.map((item) => (
                <li
                  key={item.title}
                  className="flex gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
                >
                  <span aria-hidden="true" className="mt-0.5 font-bold text-emerald-600">
                    ✓
                  </span>
                  <div>
                    <h3 className="font-bold">{item.title}</h3>
                    <p className="mt-1 text-slate-600">{item.description}</p>
                  </div>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section aria-labelledby="expect-title" className="px-4 py-14">
          <div className="mx-auto max-w-4xl">
            <h2 id="expect-title" className="text-center text-3xl font-extrabold tracking-tight">
              What to expect
            </h2>
            <ol className="mt-8 space-y-4">
              {thankYouSteps.map((step, i) => (
                <li key={step.title} className="flex gap-4 rounded-2xl border border-slate-200 p-5">
                  <span
                    aria-hidden="true"
                    className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-indigo-600 font-bold text-white"
                  >
                    {i + 1}
                  </span>
                  <div>
                    <h3 className="font-bold">
                      {step.title}{" "}
                      <span className="font-normal text-slate-600">({step.duration})</span>
                    </h3>
                    <p className="mt-1 text-slate-600">{step.description}</p>
                  </div>
                </li>
              ))}
            </ol>
          </div>
        </section>
      </main>
      <MarketingFooter disclaimer={false} />
    </>
  );
}
