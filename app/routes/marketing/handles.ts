import type { RouteHandle } from "~/root";

/** The handle of a page that renders its own footer with the earnings disclaimer. */
export const ownFooter: RouteHandle = { ownFooter: true };
