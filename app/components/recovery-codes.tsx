import { Link } from "react-router";
import { useCopy } from "./use-copy";

/**
 * The recovery codes, shown once: a list to copy or download (the download is
 * a plain link, so it works before JavaScript loads).
 */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const text = `AI Labs recovery codes. Each works once.\n\n${codes.join("\n")}\n`;
  const { copied, copy } = useCopy(text);
  return (
    <div className="space-y-4">
      <div role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-sm">
        <p className="font-semibold text-green-900">Save your recovery codes</p>
        <p className="mt-1 text-green-900">
          If you lose your phone, each of these codes signs you in once instead of an authentication
          code. They are shown only now: copy or download them and keep them somewhere safe.
        </p>
      </div>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-2 rounded-md bg-slate-100 p-4 font-mono text-sm sm:text-base"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          onClick={copy}
          className="rounded-md border border-slate-300 bg-white px-4 py-2 font-semibold text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          {copied ? "Copied!" : "Copy codes"}
        </button>
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="ai-labs-recovery-codes.txt"
          className="rounded-md border border-slate-300 bg-white px-4 py-2 font-semibold text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          Download codes
        </a>
        <Link
          to="/account"
          reloadDocument
          className="rounded-md bg-indigo-600 px-4 py-2 font-semibold text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
        >
          I have saved them
        </Link>
      </div>
    </div>
  );
}
