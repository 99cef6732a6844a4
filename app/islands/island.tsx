import type { ComponentType } from "react";
import type { IslandName } from "./registry";

/**
 * Renders `component` inside a wrapper that names it and carries its props,
 * so that on an islands page (no React Router client) hydrate-islands.tsx can
 * hydrate it alone. On a fully hydrated page the wrapper is inert.
 * Props must be JSON; the component must not need the router.
 */
export function Island<P extends object>({
  name,
  component: Component,
  props,
}: {
  name: IslandName;
  component: ComponentType<P>;
  props: P;
}) {
  return (
    <div data-island={name} data-props={JSON.stringify(props)} className="contents">
      <Component {...props} />
    </div>
  );
}
