import type { ComponentType } from "react";

/**
 * The interactive parts of pages that hydrate only those parts (route handle
 * `hydrate: "islands"`), each loaded on its own so a page fetches only what it shows.
 */
export const islandLoaders = {
  "build-terminal": () =>
    import("~/components/marketing/build-terminal").then((m) => m.BuildTerminal),
  "cookie-banner": () => import("~/components/cookie-banner").then((m) => m.CookieBanner),
  "build-demo": () => import("~/components/marketing/build-demo").then((m) => m.BuildDemo),
  "checkout-disclaimer-script": () =>
    import("~/components/marketing/use-body-script").then((m) => m.CheckoutDisclaimerScript),
  countdown: () => import("~/components/marketing/countdown").then((m) => m.Countdown),
  "faq-list": () => import("~/components/marketing/faq-list").then((m) => m.FaqList),
  "launch-countdown": () =>
    import("~/components/marketing/launch-countdown").then((m) => m.LaunchCountdownClock),
} satisfies Record<string, () => Promise<ComponentType<never>>>;

export type IslandName = keyof typeof islandLoaders;
