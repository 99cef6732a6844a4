import { useEffect } from "react";
import { salesFunnel } from "~/config/site";

declare global {
  interface Window {
    /**
     * Test seam: a script URL used when the site config sets none. Prerendered
     * pages bake the config in at build time, so a browser test sets this with
     * an init script instead of rebuilding.
     */
    __ailabsCheckoutDisclaimerScript?: string;
  }
}

/**
 * Adds `<script src>` to the end of the body while the calling page is shown
 * and removes it when the page unmounts (the visitor navigates away).
 * Nothing is added when neither `src` nor the test seam gives a URL.
 */
export function useBodyScript(src: string | null) {
  useEffect(() => {
    const url = src ?? window.__ailabsCheckoutDisclaimerScript;
    if (!url) return;
    const script = document.createElement("script");
    script.src = url;
    script.async = true;
    script.dataset.checkoutDisclaimer = "";
    document.body.appendChild(script);
    return () => script.remove();
  }, [src]);
}

/** The checkout provider's disclaimer script, at the end of the body while the page is shown. */
export function CheckoutDisclaimerScript() {
  useBodyScript(salesFunnel.checkoutDisclaimerScriptUrl);
  return null;
}
