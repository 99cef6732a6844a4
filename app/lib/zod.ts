import { z } from "zod";

// The Content-Security-Policy allows no eval (app/server/http/csp.server.ts).
// Zod would try `new Function` to compile faster parsers, which the browser
// refuses and reports as a violation. Every schema is made through this
// module, so this runs before the first one: zod interprets them instead.
z.config({ jitless: true });

export { z };
