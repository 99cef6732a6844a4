/** Longest prompt the app builder form accepts. */
export const maxPromptLength = 2000;

/**
 * The builder's address with the prompt as ?prompt=. URLSearchParams encodes
 * it, so quotes, ampersands, emoji and new lines arrive unchanged; any query
 * the base URL already has is kept.
 */
export function buildAppBuilderUrl(baseUrl: string, prompt: string): string {
  const url = new URL(baseUrl);
  url.searchParams.set("prompt", prompt);
  return url.toString();
}
