import { describe, expect, it } from "vitest";
import { createUser, origin, purchasesOf } from "~/test/helpers";
import { getDb } from "../db/db.server";
import { createCheckout } from "./checkout.server";
import { checkoutReturnFor } from "./checkout-return.server";
import { setUpStripeStandIn, stand } from "./fixtures";

setUpStripeStandIn();

const signedIn = (u: { id: string }, isAdmin = false) => ({ id: u.id, isAdmin });

/** A Stripe Checkout Session of the plan started by this user; its id. */
async function startCheckout(u: { id: string; email: string }): Promise<string> {
  const { url } = await createCheckout(await getDb(), {
    user: { id: u.id, email: u.email },
    productId: "lifetime-access",
    origin,
    testCheckout: false,
    stripe: stand.config,
  });
  return url.split("/").pop() ?? "";
}

describe("what /success says (checkoutReturnFor)", () => {
  it("access is active only for a signed-in user who has it", async () => {
    const db = await getDb();
    const member = await createUser({ paid: true });
    const admin = await createUser({ isAdmin: true });
    const unpaid = await createUser();
    for (const stripe of [undefined, stand.config]) {
      const visit = (user: { id: string; isAdmin: boolean } | null) =>
        checkoutReturnFor(db, stripe, { user, sessionId: null });
      expect(await visit(null)).toBe("unknown");
      expect(await visit(signedIn(unpaid))).toBe("unknown");
      expect(await visit(signedIn(member))).toBe("paid");
      expect(await visit(signedIn(admin, true))).toBe("paid");
    }
  });

  it("a visitor without a session learns nothing of a session paid by someone, and Stripe is not asked", async () => {
    const buyer = await createUser();
    const sessionId = await startCheckout(buyer);
    stand.paySession(sessionId);
    const asked = stand.requests.length;
    expect(await checkoutReturnFor(await getDb(), stand.config, { user: null, sessionId })).toBe(
      "unknown",
    );
    expect(stand.requests.length).toBe(asked);
    expect(await purchasesOf(buyer.id)).toHaveLength(0);
  });

  it("with Stripe: the buyer's paid session is fulfilled at once; an unpaid one is pending", async () => {
    const db = await getDb();
    const buyer = await createUser();
    const visit = (sessionId: string) =>
      checkoutReturnFor(db, stand.config, { user: signedIn(buyer), sessionId });
    expect(await visit(await startCheckout(buyer))).toBe("pending");
    expect(await purchasesOf(buyer.id)).toHaveLength(0);
    const paid = await startCheckout(buyer);
    stand.paySession(paid);
    expect(await visit(paid)).toBe("paid");
    expect(await purchasesOf(buyer.id)).toHaveLength(1);
    // A member already: their access is what is true, whatever this session says.
    const member = await createUser({ paid: true });
    const theirs = await startCheckout(member);
    expect(
      await checkoutReturnFor(db, stand.config, { user: signedIn(member), sessionId: theirs }),
    ).toBe("paid");
  });
});
