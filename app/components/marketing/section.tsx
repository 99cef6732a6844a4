import type { ReactNode } from "react";

/** A sales-page section: a centred heading that names the region, then its content. */
export function MarketingSection({
  id,
  title,
  children,
  width = "max-w-5xl",
  className = "",
}: {
  id: string;
  title: string;
  children: ReactNode;
  width?: "max-w-3xl" | "max-w-4xl" | "max-w-5xl";
  className?: string;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className={`px-4 py-14 sm:py-20 ${className}`}>
      <div className={`mx-auto ${width}`}>
        <h2
          id={`${id}-title`}
          className="text-center text-3xl font-extrabold tracking-tight sm:text-4xl"
        >
          {title}
        </h2>
        <div className="mt-10">{children}</div>
      </div>
    </section>
  );
}
