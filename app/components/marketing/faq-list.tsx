import { useId, useState } from "react";

export type FaqItem = { question: string; answer: string };

/**
 * Questions as disclosure buttons: each opens and closes on its own
 * (aria-expanded), marked with a plus or a minus. `idPrefix` names the panels
 * when the list is an island: hydrated alone, React's generated ids would not
 * be the ones the server rendered in the whole page.
 */
export function FaqList({
  items,
  tone = "light",
  idPrefix,
}: {
  items: readonly FaqItem[];
  tone?: "light" | "dark";
  idPrefix?: string;
}) {
  const generatedId = useId();
  const id = idPrefix ?? generatedId;
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const toggle = (i: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(i)) next.delete(i);
      else next.add(i);
      return next;
    });
  const dark = tone === "dark";
  return (
    <div
      className={`divide-y rounded-2xl border ${
        dark
          ? "divide-white/15 border-white/15 bg-white/5"
          : "divide-slate-200 border-slate-200 bg-white"
      }`}
    >
      {items.map((item, i) => {
        const isOpen = open.has(i);
        const panel = `${id}-faq-${i}`;
        return (
          <div key={item.question}>
            <h3>
              <button
                type="button"
                aria-expanded={isOpen}
                aria-controls={panel}
                onClick={() => toggle(i)}
                className={`flex w-full items-center justify-between gap-4 px-5 py-4 text-left font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-inset ${
                  dark ? "focus-visible:ring-amber-300" : "focus-visible:ring-indigo-500"
                }`}
              >
                <span>{item.question}</span>
                <span
                  aria-hidden="true"
                  className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-lg leading-none ${
                    dark ? "bg-white/10 text-amber-300" : "bg-indigo-50 text-indigo-700"
                  }`}
                >
                  {isOpen ? "−" : "+"}
                </span>
              </button>
            </h3>
            <div
              id={panel}
              hidden={!isOpen}
              className={`px-5 pb-5 leading-relaxed ${dark ? "text-slate-300" : "text-slate-600"}`}
            >
              {item.answer}
            </div>
          </div>
        );
      })}
    </div>
  );
}
