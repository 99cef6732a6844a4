import { useEffect, useState } from "react";

/**
 * Copies `text` to the clipboard on call; `copied` is true for 2 seconds after
 * (the button says Copied!). A refused copy is logged and changes nothing.
 */
export function useCopy(text: string): { copied: boolean; copy: () => void } {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setCopied(true),
      (error) => console.error("copy failed", error),
    );
  };
  return { copied, copy };
}
