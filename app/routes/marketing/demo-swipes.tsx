import { useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { MarketingPage } from "~/components/marketing/marketing-page";
import {
  BannersPanel,
  DemoPanel,
  SwipeDetails,
  SwipeList,
} from "~/components/marketing/promo-panels";
import { type TabItem, Tabs } from "~/components/marketing/tabs";
import { useOffer } from "~/components/marketing/use-offer";
import { site } from "~/config/site";
import {
  defaultSwipeValues,
  type SwipeValues,
  swipesFor,
  type TabId,
  tabFromQuery,
} from "~/content/swipes";
import { pageMetaFor } from "~/lib/seo";
import { useHydrated } from "~/lib/use-hydrated";
import { offerLoader } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/demo-swipes";
import { ownFooter } from "./handles";

export const loader = offerLoader;

export const handle = ownFooter;

export const meta: Route.MetaFunction = () => pageMetaFor("/demo-swipes");

export default function DemoSwipes() {
  const [params, setParams] = useSearchParams();
  const hydrated = useHydrated();
  // The page is prerendered without a query, so the server's HTML opens on the demo;
  // the tab the link names is chosen once the page runs in the browser.
  const selected = hydrated ? tabFromQuery(params.get("tab")) : "demo";
  const [values, setValues] = useState<SwipeValues>(defaultSwipeValues);
  const offer = useOffer();
  const { short: shortSwipes, long: longSwipes } = useMemo(() => swipesFor(offer), [offer]);

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
    <MarketingPage
      background="bg-slate-100"
      mainClassName="mx-auto max-w-5xl px-4 py-8"
      disclaimer={false}
    >
      <nav aria-label="Affiliate" className="flex flex-wrap gap-x-6 gap-y-2 text-sm font-semibold">
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

      <SwipeDetails values={values} onChange={setValues} />

      <div className="mt-8">
        <Tabs label="Promotional resources" items={items} selected={selected} onSelect={select} />
      </div>
    </MarketingPage>
  );
}
