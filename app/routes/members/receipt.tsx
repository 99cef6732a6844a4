import { data, Link } from "react-router";
import { useHydrated } from "~/lib/use-hydrated";
import { z } from "~/lib/zod";
import { requireUser } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/db.server";
import { receiptFor } from "~/server/payments/receipts.server";
import type { Route } from "./+types/receipt";

// A purchase's receipt, to print or keep (/account/receipts/:orderNumber): the
// seller, the buyer, the item, the amount, how it was paid and the order number.

export const meta: Route.MetaFunction = ({ params }) => [
  { title: `Receipt ${params.orderNumber} | AI Labs` },
  { name: "robots", content: "noindex" },
];

const orderNumber = z
  .string()
  .transform((v) => v.trim().toUpperCase())
  .pipe(z.string().regex(/^AIL-[0-9A-Z]{5}$/));

export async function loader({ request, params }: Route.LoaderArgs) {
  // Any signed-in buyer: a refunded one too keeps their receipts.
  const user = await requireUser(request);
  const number = orderNumber.safeParse(params.orderNumber);
  const receipt = number.success ? await receiptFor(await getDb(), user, number.data) : null;
  if (!receipt) return data({ receipt: null }, { status: 404 });
  const { createdAt: _, refundedAt: _r, ...shown } = receipt;
  return { receipt: shown };
}

const linkClass =
  "inline-flex min-h-11 items-center font-semibold text-indigo-700 underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500";

export default function Receipt({ loaderData }: Route.ComponentProps) {
  const { receipt } = loaderData;
  const hydrated = useHydrated();
  if (!receipt) {
    return (
      <main className="mx-auto max-w-2xl px-4 py-10">
        <h1 className="text-3xl font-bold tracking-tight">Receipt not found</h1>
        <p className="mt-4 text-slate-700">
          There is no receipt with this order number on your account.
        </p>
        <Link to="/account" className={linkClass}>
          Back to your account
        </Link>
      </main>
    );
  }
  const refunded = receipt.status === "refunded";
  return (
    <main className="mx-auto max-w-2xl px-4 py-10 print:max-w-none print:p-0">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to="/account" className={linkClass}>
          Back to your account
        </Link>
        {hydrated ? (
          <button
            type="button"
            onClick={() => window.print()}
            className="inline-flex min-h-11 items-center rounded-md border border-slate-300 bg-white px-4 font-semibold text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          >
            Print receipt
          </button>
        ) : null}
      </div>
      <article
        aria-labelledby="receipt-heading"
        className="mt-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10 print:mt-0 print:border-0 print:p-0 print:shadow-none"
      >
        <header className="flex flex-col gap-6 sm:flex-row sm:justify-between">
          <div>
            <h1 id="receipt-heading" className="text-3xl font-bold tracking-tight">
              Receipt
            </h1>
            <p className="mt-1 font-mono text-lg">{receipt.orderNumber}</p>
            {refunded ? (
              <p className="mt-2 inline-block rounded-full bg-slate-200 px-3 py-1 text-sm font-semibold text-slate-800">
                Refunded{receipt.refundedDay ? ` on ${receipt.refundedDay}` : ""}
              </p>
            ) : null}
          </div>
          <address className="not-italic text-sm text-slate-700 sm:text-right">
            <span className="block font-semibold text-slate-900">{receipt.seller.name}</span>
            {receipt.seller.address.map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
            <span className="block">{receipt.supportEmail}</span>
          </address>
        </header>

        <dl className="mt-8 grid gap-x-6 gap-y-4 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-500">Billed to</dt>
            <dd className="mt-0.5 text-slate-900">
              <span className="block">{receipt.buyer.name}</span>
              <span className="block break-all">{receipt.buyer.email}</span>
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Date</dt>
            <dd className="mt-0.5 text-slate-900">{receipt.day}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Order number</dt>
            <dd className="mt-0.5 font-mono text-slate-900">{receipt.orderNumber}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Paid with</dt>
            <dd className="mt-0.5 text-slate-900">{receipt.paidWith}</dd>
          </div>
        </dl>

        <table className="mt-8 w-full text-left text-sm">
          <caption className="sr-only">Items</caption>
          <thead>
            <tr className="border-b border-slate-300">
              <th scope="col" className="py-2 font-semibold">
                Item
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            <tr className="border-b border-slate-200">
              <td className="py-3">{receipt.product}</td>
              <td className="py-3 text-right tabular-nums">{receipt.amount}</td>
            </tr>
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" className="py-3 font-semibold">
                {refunded ? "Total paid, since refunded" : "Total paid"}
              </th>
              <td className="py-3 text-right font-semibold tabular-nums">{receipt.amount}</td>
            </tr>
          </tfoot>
        </table>

        <p className="mt-8 text-sm text-slate-600">
          Thank you for your purchase. Questions? Write to {receipt.supportEmail} and quote your
          order number.
        </p>
      </article>
    </main>
  );
}
