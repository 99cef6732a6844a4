import { createContext, useContext } from "react";

/**
 * The nonce of this rendered page's inline scripts (the server's
 * Content-Security-Policy names it). Empty in the browser, which hides the
 * nonce and needs none: its scripts already ran.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
