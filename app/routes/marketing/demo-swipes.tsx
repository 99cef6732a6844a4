import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { CopyButton } from "~/components/marketing/affiliate";
import { MarketingFooter } from "~/components/marketing/marketing-footer";
import { type TabItem, Tabs } from "~/components/marketing/tabs";
import { TextField } from "~/components/ui";
import { affiliateLaunch, site } from "~/config/site";
import {
  defaultSwipeValues,
  fillSwipe,
  LINK_PLACEHOLDER,
  longSwipes,
  NAME_PLACEHOLDER,
  type Swipe,
  type SwipeValues,
  shortSwipes,
  type TabId,
  tabFromQuery,
} from "~/content/swipes";
import { pageMeta } from "~/lib/seo";
import { useHydrated } from "~/lib/use-hydrated";
import type { RouteHandle } from "~/root";
import type { Route } from "./+types/demo-swipes";

export const handle: RouteHandle = { ownFooter: true };

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Promotional Resources: Demo, Swipes and Banners | AI Labs",
    description:
      "Everything to promote AI Labs: the demo video, short and long e-mail swipes with your affiliate link filled in, and four banner sizes to download.",
    path: "/demo-swipes",
  });

const banners = [
  { width: 728, height: 90, name: "Leaderboard" },
  { width: 300, height: 250, name: "Medium rectangle" },
  { width: 468, height: 60, name: "Banner" },
  { width: 160, height: 600, name: "Wide skyscraper" },
] as const;

const bannerPath = (b: { width: number; height: number }) =>
  `/banners/ailabs-${b.width}x${b.height}.png`;

const customGraphicsMail = `mailto:${affiliateLaunch.jvEmail}?subject=${encodeURIComponent(
  "Custom AI Labs graphics request",
)}&body=${encodeURIComponent(
  "Hi AI Labs team,\n\nI am promoting the launch and would like a banner in this size and style:\n\nMy affiliate ID:\n",
)}`;

const videoTips = [
  "Embed or link the video near the top of your bonus page: visitors who watch it buy more often.",
  "Send it in your second e-mail, after the first one introduces AI Labs, with a line on what the viewer will see.",
  "Post it natively on social media with your affiliate link in the first comment, not in the post.",
  "Keep it short: the demo shows prompt, build and deploy in a few seconds, so it works as a teaser.",
];

export default function DemoSwipes() {
  const [params, setParams] = useSearchParams();
  const hydrated = useHydrated();
  // The page is prerendered without a query, so the server's HTML opens on the demo;
  // the tab the link names is chosen once the page runs in the browser.
  const selected = hydrated ? tabFromQuery(params.get("tab")) : "demo";
  const [values, setValues] = useState<SwipeValues>(defaultSwipeValues);

  function select(id: TabId) {
    // Other parameters (an affiliate's tracking tags) stay in the address.
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set("tab", id);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }

  const items: TabItem<TabId>[] = [
    { id: "demo", label: "Demo Video", panel: <DemoPanel /> },
    {
      id: "short-emails",
      label: `Short E-mails (${shortSwipes.length})`,
      panel: <SwipeList swipes={shortSwipes} values={values} />,
    },
    {
      id: "long-emails",
      label: `Long E-mails (${longSwipes.length})`,
      panel: <SwipeList swipes={longSwipes} values={values} />,
    },
    { id: "banners", label: "Banners", panel: <BannersPanel link={values.link} /> },
  ];

  return (
    <div className="bg-slate-100">
      <main className="mx-auto max-w-5xl px-4 py-8">
        <nav
          aria-label="Affiliate"
          className="flex flex-wrap gap-x-6 gap-y-2 text-sm font-semibold"
        >
          <Link to="/jv-affiliate" className="text-indigo-700 underline hover:text-indigo-900">
            ← Affiliate page
          </Link>
          <Link to="/jv-doc" className="text-indigo-700 underline hover:text-indigo-900">
            JV Doc
          </Link>
        </nav>
        <header className="mt-6">
          <h1 className="text-3xl font-extrabold text-slate-900 sm:text-4xl">
            Promotional Resources
          </h1>
          <p className="mt-3 max-w-3xl text-slate-700">
            The demo video, {shortSwipes.length + longSwipes.length} ready-to-send e-mails and four
            banner sizes for promoting {site.brand}. Enter your affiliate link once: every swipe and
            banner code you copy carries it.
          </p>
        </header>

        <section
          aria-labelledby="details-title"
          className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
        >
          <h2 id="details-title" className="text-lg font-bold text-slate-900">
            Your details
          </h2>
          <div className="mt-3 grid gap-4 sm:grid-cols-2">
            <TextField
              name="swipe-link"
              label="Your affiliate link"
              hint={`Replaces ${LINK_PLACEHOLDER}. Request yours on the affiliate page.`}
              type="url"
              value={values.link}
              onChange={(event) => setValues((v) => ({ ...v, link: event.target.value }))}
              maxLength={300}
              spellCheck={false}
              autoComplete="off"
            />
            <TextField
              name="swipe-name"
              label="Recipient's name"
              hint={`Replaces ${NAME_PLACEHOLDER}: a name, or your mailer's merge tag.`}
              type="text"
              value={values.name}
              onChange={(event) => setValues((v) => ({ ...v, name: event.target.value }))}
              maxLength={300}
              spellCheck={false}
              autoComplete="off"
            />
          </div>
        </section>

        <div className="mt-8">
          <Tabs label="Promotional resources" items={items} selected={selected} onSelect={select} />
        </div>
      </main>
      <MarketingFooter disclaimer={false} />
    </div>
  );
}

function DemoPanel() {
  return (
    <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
      <div>
        <h2 className="text-xl font-bold text-slate-900">Demo video</h2>
        <video
          controls
          preload="none"
          poster="/videos/ailabs-demo-poster.png"
          width={640}
          height={360}
          className="mt-3 aspect-video h-auto w-full rounded-lg bg-slate-900"
        >
          <source src="/videos/ailabs-demo.webm" type="video/webm" />
          <track
            kind="captions"
            src="/videos/ailabs-demo.vtt"
            srcLang="en"
            label="English"
            default
          />
          Your browser does not support the video tag.
        </video>
        <p className="mt-2 text-sm text-slate-600">
          Prompt, build, deploy: the product at work in six seconds.{" "}
          <a
            href="/videos/ailabs-demo.webm"
            download="ailabs-demo.webm"
            className="font-semibold text-indigo-700 underline"
          >
            Download the video (WebM)
          </a>
        </p>
      </div>
      <div>
        <h2 className="text-xl font-bold text-slate-900">How to use it</h2>
        <ul className="mt-3 list-disc space-y-2 pl-5 text-slate-700">
          {videoTips.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function SwipeList({ swipes, values }: { swipes: readonly Swipe[]; values: SwipeValues }) {
  return (
    <ol className="space-y-6">
      {swipes.map((swipe, index) => {
        const filled = fillSwipe(swipe, values);
        const [subjectLine = "", ...rest] = filled.split("\n\n");
        return (
          <li key={swipe.id}>
            <article
              aria-labelledby={`${swipe.id}-title`}
              className="rounded-lg border border-slate-200 bg-slate-50 p-4"
            >
              <div className="flex flex-wrap items-start justify-between gap-3">
                <h3 id={`${swipe.id}-title`} className="font-bold text-slate-900">
                  <span className="text-slate-500">E-mail {index + 1}: </span>
                  {subjectLine.replace(/^Subject: /, "")}
                </h3>
                <CopyButton text={filled} describedBy={`${swipe.id}-title`} />
              </div>
              <pre className="mt-3 whitespace-pre-wrap break-words font-sans text-sm leading-relaxed text-slate-700">
                {rest.join("\n\n")}
              </pre>
            </article>
          </li>
        );
      })}
    </ol>
  );
}

/** The affiliate's link when it is a web address; otherwise the placeholder, never a script URL. */
function bannerHref(link: string): string {
  try {
    const url = new URL(link.trim());
    if (url.protocol === "https:" || url.protocol === "http:") return link.trim();
  } catch {
    // not a URL yet: the affiliate is still typing
  }
  return LINK_PLACEHOLDER;
}

function BannersPanel({ link }: { link: string }) {
  const href = bannerHref(link);
  return (
    <div>
      <h2 className="text-xl font-bold text-slate-900">Banners</h2>
      <p className="mt-1 text-slate-700">
        Download a PNG to host yourself, or copy the HTML code: it links the banner to your
        affiliate link.
      </p>
      <ul className="mt-6 space-y-8">
        {banners.map((b) => {
          const file = bannerPath(b);
          const size = `${b.width}x${b.height}`;
          const code = `<a href="${escapeAttribute(href)}"><img src="${site.canonicalOrigin}${file}" width="${b.width}" height="${b.height}" alt="${site.brand}: build and launch an AI SaaS app without coding"></a>`;
          return (
            <li key={size}>
              <figure>
                <figcaption className="font-semibold text-slate-900" id={`banner-${size}`}>
                  {b.name}, {b.width} × {b.height}
                </figcaption>
                <img
                  src={file}
                  width={b.width}
                  height={b.height}
                  loading="lazy"
                  alt={`${site.brand} banner, ${b.width} by ${b.height} pixels`}
                  className="mt-2 h-auto max-w-full rounded border border-slate-200"
                />
              </figure>
              <div className="mt-3 flex flex-wrap gap-3">
                <a
                  href={file}
                  download={`ailabs-${size}.png`}
                  className="inline-flex items-center rounded-lg border border-indigo-600 px-4 py-2 text-sm font-bold text-indigo-700 hover:bg-indigo-50 focus:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400"
                >
                  Download {size} PNG
                </a>
                <CopyButton text={code} label="Copy HTML" describedBy={`banner-${size}`} />
              </div>
            </li>
          );
        })}
      </ul>
      <p className="mt-8 rounded-lg bg-indigo-50 p-4 text-slate-800">
        Need another size or a design for your audience?{" "}
        <a href={customGraphicsMail} className="font-semibold text-indigo-700 underline">
          Ask us for custom graphics
        </a>{" "}
        at {affiliateLaunch.jvEmail}.
      </p>
    </div>
  );
}

function escapeAttribute(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}
