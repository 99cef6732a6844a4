import { logger } from "./logger.server";

/**
 * Runs `work`, retrying up to `retries` more times on failure (the course list
 * is retried twice: docs/product.md, Training area).
 */
export async function withRetries<T>(
  work: () => Promise<T>,
  retries: number,
  label: string,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= retries) throw error;
      logger.warn({ err: error, attempt: attempt + 1 }, `${label} failed; retrying`);
    }
  }
}
