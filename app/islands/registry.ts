import type { ComponentType } from "react";

/**
 * The interactive parts of pages that hydrate only those parts (route handle
 * `hydrate: "islands"`), each loaded on its own so a page fetches only what it shows.
 */
export const islandLoaders = {
  "build-terminal": () =>
    import("~/components/marketing/build-terminal").then((m) => m.BuildTerminal),
  "cookie-banner": () => import("~/components/cookie-banner").then((m) => m.CookieBanner),
} satisfies Record<string, () => Promise<ComponentType<never>>>;

export type IslandName = keyof typeof islandLoaders;
