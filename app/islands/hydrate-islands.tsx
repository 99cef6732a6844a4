import { createElement } from "react";
import { hydrateRoot } from "react-dom/client";
import { type IslandName, islandLoaders } from "./registry";

/**
 * The whole client of an islands page: hydrates each `[data-island]` element
 * with its component and the props the server rendered it with. The rest of
 * the page stays the HTML it arrived as.
 */
for (const element of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const name = element.dataset.island as IslandName;
  const load = Object.hasOwn(islandLoaders, name) ? islandLoaders[name] : undefined;
  if (!load) continue;
  let props: object;
  try {
    props = JSON.parse(element.dataset.props ?? "{}");
  } catch (error) {
    console.error(`Island ${name} has unreadable props`, error);
    continue;
  }
  load()
    .then((component) =>
      hydrateRoot(element, createElement(component as React.ComponentType<object>, props)),
    )
    .catch((error: unknown) => console.error(`Island ${name} failed to load`, error));
}
