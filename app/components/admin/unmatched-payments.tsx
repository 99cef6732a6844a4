import { Form, useNavigation } from "react-router";
import { isFormAnswer } from "~/lib/form-answer";
import { FormError, Notice } from "../form-answer";
import { fieldClass, formatAmount, formatWhen, secondaryButton } from "./console";

type Payment = {
  provider: string;
  providerRef: string;
  reason: string;
  userRef: string | null;
  amountCents: number;
  currency: string;
  createdAt: Date;
  /** The product whose price is its amount: what its form offers first. */
  likelyProduct: string;
};

const reasons: Record<string, string> = {
  "not-the-plan": "paid for something other than the plan",
  "unknown-user": "names no account of this product",
  "already-bought": "paid again for a product the order already holds",
};

/** Paid payments that granted nothing: attach each to an account, or dismiss it. */
export function UnmatchedPayments({
  payments,
  products,
  notice,
  answer,
}: {
  payments: readonly Payment[];
  /** The products a payment can be attached as, with their names. */
  products: readonly { key: string; name: string }[];
  /** What the last attach or dismiss did (takeNotice). */
  notice: string | null;
  /** The action's answer when it refused one (FormAnswer). */
  answer: unknown;
}) {
  const busy = useNavigation().state === "submitting";
  if (payments.length === 0 && !notice && !isFormAnswer(answer)) return null;
  // A refused attach: its values (the e-mail and product typed), and whether the account
  // already holds the product, which the form then asks to confirm.
  const refused = isFormAnswer(answer) ? answer : undefined;
  const alreadyHeld = (answer as { alreadyHeld?: boolean } | undefined)?.alreadyHeld === true;
  return (
    <section
      aria-labelledby="unmatched-heading"
      className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4"
    >
      <h2 id="unmatched-heading" className="text-lg font-semibold">
        Payments that need you ({payments.length})
      </h2>
      <Notice notice={notice} className="mt-2" />
      <FormError answer={answer} />
      <ul className="mt-3 space-y-3">
        {payments.map((p) => {
          const typed = refused?.values.providerRef === p.providerRef ? refused.values : undefined;
          return (
            <li
              key={`${p.provider}:${p.providerRef}`}
              className="rounded-md border border-amber-200 bg-white p-3"
            >
              <p className="text-sm">
                <strong>{formatAmount(p.amountCents, p.currency)}</strong> via {p.provider},{" "}
                {formatWhen(p.createdAt)}: {reasons[p.reason] ?? p.reason}.{" "}
                <span className="break-all text-slate-600">Ref {p.providerRef}</span>
                {p.userRef ? (
                  <span className="break-all text-slate-600"> (named {p.userRef})</span>
                ) : null}
              </p>
              <div className="mt-2 flex flex-wrap items-end gap-2">
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="intent" value="attach" />
                  <input type="hidden" name="provider" value={p.provider} />
                  <input type="hidden" name="providerRef" value={p.providerRef} />
                  <div>
                    <label
                      htmlFor={`attach-${p.providerRef}`}
                      className="block text-sm font-medium text-slate-700"
                    >
                      Account e-mail
                    </label>
                    <input
                      id={`attach-${p.providerRef}`}
                      name="email"
                      type="email"
                      required
                      maxLength={254}
                      defaultValue={typed?.email ?? ""}
                      className={fieldClass}
                    />
                  </div>
                  <div>
                    <label
                      htmlFor={`attach-product-${p.providerRef}`}
                      className="block text-sm font-medium text-slate-700"
                    >
                      Paid for
                    </label>
                    <select
                      id={`attach-product-${p.providerRef}`}
                      name="product"
                      defaultValue={typed?.product ?? p.likelyProduct}
                      className={fieldClass}
                    >
                      {products.map((product) => (
                        <option key={product.key} value={product.key}>
                          {product.name}
                        </option>
                      ))}
                    </select>
                  </div>
                  <button type="submit" className={secondaryButton} disabled={busy}>
                    Attach
                  </button>
                  {typed && alreadyHeld ? (
                    <button
                      type="submit"
                      name="anyway"
                      value="yes"
                      className={secondaryButton}
                      disabled={busy}
                    >
                      Attach anyway
                    </button>
                  ) : null}
                </Form>
                <Form method="post">
                  <input type="hidden" name="provider" value={p.provider} />
                  <input type="hidden" name="providerRef" value={p.providerRef} />
                  <button
                    type="submit"
                    name="intent"
                    value="dismiss"
                    className={secondaryButton}
                    disabled={busy}
                  >
                    Dismiss
                  </button>
                </Form>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
