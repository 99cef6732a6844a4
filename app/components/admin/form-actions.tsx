import { Link } from "react-router";

/** The Save button (disabled while saving or without a title) and the Cancel link of an admin form. */
export function FormActions({
  busy,
  canSave,
  saveLabel,
  cancelTo,
}: {
  busy: boolean;
  canSave: boolean;
  saveLabel: string;
  cancelTo: string;
}) {
  return (
    <div className="flex gap-3">
      <button
        type="submit"
        disabled={busy || !canSave}
        className="rounded-md bg-indigo-600 px-4 py-2 font-semibold text-white hover:bg-indigo-700 disabled:opacity-50"
      >
        {busy ? "Saving..." : saveLabel}
      </button>
      <Link to={cancelTo} className="rounded-md border border-slate-300 bg-white px-4 py-2">
        Cancel
      </Link>
    </div>
  );
}
