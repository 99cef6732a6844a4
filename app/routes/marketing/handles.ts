import type { RouteHandle } from "~/root";

/** The handle of a page that renders its own footer with the earnings disclaimer. */
export const ownFooter: RouteHandle = { ownFooter: true };

/**
 * The same, on a page whose visitors get its HTML and only its islands (the
 * countdowns, the build demo, the FAQ, the checkout's disclaimer script, the
 * cookie banner), not
 * React Router's client (decisions 007 and 025).
 */
export const ownFooterIslands: RouteHandle = { ownFooter: true, hydrate: "islands" };
