/** Public pages that are the same for every visitor: prerendered at build and served from memory. */
export const publicPaths = [
  "/",
  "/ailabs-offer",
  "/ailabs-offer2",
  "/white-label-upsell",
  "/custom-saas-upsell",
  "/custom-saas-thank-you",
  "/privacy-policy",
  "/terms-of-service",
  "/upgrades",
  "/jv-affiliate",
  "/jv-doc",
  "/demo-swipes",
] as const;
