import { type KeyboardEvent, type ReactNode, useEffect, useRef } from "react";

export type TabItem<Id extends string> = { id: Id; label: string; panel: ReactNode };

/**
 * WAI-ARIA tabs with automatic activation: arrow keys, Home and End move
 * between tabs; only the selected tab is in the tab order. Every panel is in
 * the HTML (hidden unless selected), so the content is there before hydration.
 */
export function Tabs<Id extends string>({
  label,
  items,
  selected,
  onSelect,
}: {
  label: string;
  items: readonly TabItem<Id>[];
  selected: Id;
  onSelect: (id: Id) => void;
}) {
  const buttons = useRef<Map<Id, HTMLButtonElement>>(new Map());
  const list = useRef<HTMLDivElement>(null);

  // On a narrow screen the tab list scrolls sideways: keep the selected tab in sight
  // (without scrolling the page, which scrollIntoView would).
  useEffect(() => {
    const tab = buttons.current.get(selected);
    const strip = list.current;
    if (!tab || !strip) return;
    if (tab.offsetLeft < strip.scrollLeft) strip.scrollLeft = tab.offsetLeft;
    else if (tab.offsetLeft + tab.offsetWidth > strip.scrollLeft + strip.clientWidth) {
      strip.scrollLeft = tab.offsetLeft + tab.offsetWidth - strip.clientWidth;
    }
  }, [selected]);

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = items.length - 1;
    const target = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = items[target];
    if (!next) return;
    onSelect(next.id);
    buttons.current.get(next.id)?.focus();
  }

  return (
    <div>
      <div
        ref={list}
        role="tablist"
        aria-label={label}
        className="relative flex gap-1 overflow-x-auto border-b border-slate-300"
      >
        {items.map((item, index) => {
          const isSelected = item.id === selected;
          return (
            <button
              key={item.id}
              ref={(el) => {
                if (el) buttons.current.set(item.id, el);
                else buttons.current.delete(item.id);
              }}
              type="button"
              role="tab"
              id={`tab-${item.id}`}
              aria-selected={isSelected}
              aria-controls={`panel-${item.id}`}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(item.id)}
              onKeyDown={(event) => onKeyDown(event, index)}
              className={`-mb-px shrink-0 whitespace-nowrap rounded-t-lg border px-4 py-2.5 text-sm font-bold focus:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400 ${
                isSelected
                  ? "border-slate-300 border-b-white bg-white text-indigo-800"
                  : "border-transparent text-slate-600 hover:text-slate-900"
              }`}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {items.map((item) => (
        <div
          key={item.id}
          role="tabpanel"
          id={`panel-${item.id}`}
          aria-labelledby={`tab-${item.id}`}
          hidden={item.id !== selected}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a tab panel is focusable so keyboard users reach its text (APG tabs pattern).
          tabIndex={0}
          className="rounded-b-xl border border-t-0 border-slate-300 bg-white p-4 focus:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400 sm:p-6"
        >
          {item.panel}
        </div>
      ))}
    </div>
  );
}
