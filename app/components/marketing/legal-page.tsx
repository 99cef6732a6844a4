import type { ReactNode } from "react";
import { Link } from "react-router";

/** Both legal pages were last updated May 21, 2025 (docs/product.md, Legal pages). */
export const legalLastUpdated = { iso: "2025-05-21", text: "May 21, 2025" } as const;

/** The frame of a legal page: title, last-updated date, readable text and a back-to-home link. */
export function LegalPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <Link to="/" className="text-sm font-medium text-indigo-700 underline">
        ← Back to home
      </Link>
      <h1 className="mt-6 text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      <p className="mt-2 text-sm text-slate-600">
        Last updated <time dateTime={legalLastUpdated.iso}>{legalLastUpdated.text}</time>
      </p>
      <div className="legal-text mt-8">{children}</div>
      <Link to="/" className="mt-10 inline-block font-medium text-indigo-700 underline">
        Back to home
      </Link>
    </main>
  );
}
