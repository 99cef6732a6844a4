// Test fixtures for the payment tests.
import { afterAll, beforeAll } from "vitest";
import { type StripeStandIn, startStripeStandIn } from "~/test/stripe-stand-in";

/** The Stripe stand-in of the running test file, from setUpStripeStandIn. */
export let stand: StripeStandIn;

/** Starts a Stripe stand-in (as `stand`) before the file's tests and closes it after them. */
export function setUpStripeStandIn(): void {
  beforeAll(async () => {
    stand = await startStripeStandIn();
  });
  afterAll(() => stand.close());
}
