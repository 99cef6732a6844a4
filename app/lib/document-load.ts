/**
 * A route's clientLoader that, instead of loading the page in the app, loads
 * it as a new document: for a page whose Content-Security-Policy allows what
 * others' do not (the marketplace's script on the upsell pages,
 * app/route-policies.ts `marketplaceScript`). A page reached by a link in the
 * app would otherwise keep the policy of the document it was reached from.
 */
export function loadAsDocument({ request }: { request: Request }): Promise<never> {
  window.location.assign(request.url);
  // The document is replaced: this navigation in the app never ends.
  return new Promise<never>(() => {});
}
