import type { ReactNode } from "react";
import { MarketingFooter } from "./marketing-footer";

/**
 * A page of the sales funnel or the affiliate area: an optional `header`, the main content and
 * the marketing footer (with the earnings disclaimer unless told otherwise). `background`, when
 * given, colours the whole page behind all three.
 */
export function MarketingPage({
  background,
  header,
  mainClassName,
  disclaimer = true,
  children,
}: {
  background?: string;
  header?: ReactNode;
  mainClassName?: string;
  disclaimer?: boolean;
  children: ReactNode;
}) {
  const page = (
    <>
      {header}
      <main className={mainClassName}>{children}</main>
      <MarketingFooter disclaimer={disclaimer} />
    </>
  );
  return background ? <div className={background}>{page}</div> : page;
}
