import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** What axe-core finds on the page against WCAG 2 A and AA: each rule, its help and where. */
export async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  return results.violations.map((v) => ({
    id: v.id,
    help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ")),
  }));
}

/** axe-core finds nothing against WCAG 2 A and AA. */
export async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}
