/** A list whose every item starts with a tick (decorative: the list itself says what it is). */
export function CheckList({
  items,
  className,
  itemClassName = "flex gap-2",
  tickClassName,
}: {
  items: readonly string[];
  className: string;
  itemClassName?: string;
  tickClassName: string;
}) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item} className={itemClassName}>
          <span aria-hidden="true" className={tickClassName}>
            ✓
          </span>
          {item}
        </li>
      ))}
    </ul>
  );
}
