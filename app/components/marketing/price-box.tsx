import type { ReactNode } from "react";
import { formatUsd } from "~/config/site";

/** Regular price struck through, today's price and the saving, with the buy action below. */
export function PriceBox({
  regularCents,
  priceCents,
  savingCents = regularCents - priceCents,
  note,
  children,
}: {
  regularCents: number;
  priceCents: number;
  /** Defaults to the difference of the two prices. */
  savingCents?: number;
  note?: string;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-md rounded-3xl border-4 border-amber-400 bg-white p-6 text-center shadow-xl sm:p-8">
      <p className="text-sm font-bold uppercase tracking-widest text-slate-500">Lifetime access</p>
      <p className="mt-3 text-lg text-slate-600">
        Regular price <s className="font-semibold text-slate-500">{formatUsd(regularCents)}</s>
      </p>
      <p className="mt-1 text-slate-900">
        <span className="text-lg font-semibold">Today only </span>
        <span className="text-6xl font-black tracking-tight">{formatUsd(priceCents)}</span>
      </p>
      <p className="mt-3 inline-block rounded-full bg-emerald-100 px-4 py-1 font-bold text-emerald-800">
        You save {formatUsd(savingCents)}
      </p>
      {note ? <p className="mt-3 text-sm text-slate-600">{note}</p> : null}
      <div className="mt-6">{children}</div>
    </div>
  );
}
