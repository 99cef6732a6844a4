import { useMatches } from "react-router";
import { offerDefaults, type PublicOffer } from "~/lib/offer";

export type { PublicOffer };

/**
 * The offer settings of this page: the `offer` its route's loader returned
 * (publicOffer(), read from memory), or the defaults on a page without one.
 */
export function useOffer(): PublicOffer {
  const matches = useMatches();
  for (const match of matches) {
    const data = match.loaderData as { offer?: PublicOffer } | undefined;
    if (data?.offer) return data.offer;
  }
  return offerDefaults;
}
