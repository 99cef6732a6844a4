import { logger } from "./logger.server";

/** Logs an error that ended a request (the logger's serializer drops query parameters). */
export function logError(error: unknown, context = "request failed"): void {
  logger.error({ err: error }, context);
}
