import type { ReactNode } from "react";

/** What a page section is given: its id (the heading's is `${id}-title`), heading and content. */
export type SectionProps = { id: string; title: string; children: ReactNode };

/**
 * A section named by its h2 (`aria-labelledby`), then its content. With `inner`, the
 * heading and content sit in a div of that class (the centred column of a full-width band).
 */
export function TitledSection({
  id,
  title,
  children,
  className,
  titleClassName,
  inner,
}: SectionProps & { className: string; titleClassName: string; inner?: string }) {
  const content = (
    <>
      <h2 id={`${id}-title`} className={titleClassName}>
        {title}
      </h2>
      {children}
    </>
  );
  return (
    <section aria-labelledby={`${id}-title`} className={className}>
      {inner ? <div className={inner}>{content}</div> : content}
    </section>
  );
}

/** A page's sections in order: id, heading, content. */
export type SectionRows = [id: string, title: string, content: ReactNode][];

/** Sections that all look alike, in order; each one's content sits in a div of `bodyClassName`. */
export function TitledSections({
  sections,
  bodyClassName,
  ...look
}: {
  sections: SectionRows;
  className: string;
  titleClassName: string;
  bodyClassName: string;
}) {
  return sections.map(([id, title, content]) => (
    <TitledSection key={id} id={id} title={title} {...look}>
      <div className={bodyClassName}>{content}</div>
    </TitledSection>
  ));
}

/** A sales-page section: a centred heading that names the region, then its content. */
export function MarketingSection({
  id,
  title,
  children,
  width = "max-w-5xl",
  className = "",
}: SectionProps & {
  width?: "max-w-3xl" | "max-w-4xl" | "max-w-5xl";
  className?: string;
}) {
  return (
    <TitledSection
      id={id}
      title={title}
      className={`px-4 py-14 sm:py-20 ${className}`}
      inner={`mx-auto ${width}`}
      titleClassName="text-center text-3xl font-extrabold tracking-tight sm:text-4xl"
    >
      <div className="mt-10">{children}</div>
    </TitledSection>
  );
}
