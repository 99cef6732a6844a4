import { useId } from "react";

/**
 * The Published switch of the course and chapter forms. A hidden "off" comes
 * first, so the form sends "off" when the switch is off and "on" (the last
 * value) when it is on (app/lib/forms.ts).
 */
export function PublishedSwitch({
  checked,
  onChange,
  what,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  what: "course" | "chapter";
}) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <input type="hidden" name="published" value="off" />
      <span className="relative inline-flex h-7 w-12 shrink-0">
        <input
          id={id}
          type="checkbox"
          role="switch"
          name="published"
          value="on"
          checked={checked}
          aria-checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby={hintId}
          className="peer absolute inset-0 z-10 m-0 h-full w-full cursor-pointer opacity-0"
        />
        <span
          aria-hidden="true"
          className={`pointer-events-none relative h-7 w-12 rounded-full transition peer-focus-visible:ring-2 peer-focus-visible:ring-indigo-500 peer-focus-visible:ring-offset-2 ${checked ? "bg-green-600" : "bg-slate-500"}`}
        >
          <span
            className={`absolute top-1 left-1 h-5 w-5 rounded-full bg-white shadow transition ${checked ? "translate-x-5" : ""}`}
          />
        </span>
      </span>
      <label htmlFor={id} className="cursor-pointer font-medium text-slate-800">
        Published
      </label>
      <p id={hintId} className="basis-full text-sm text-slate-600">
        {checked
          ? `Members see this ${what}.`
          : `Draft: members do not see this ${what}; you can preview it.`}
      </p>
    </div>
  );
}
