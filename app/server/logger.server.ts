import pino, { type DestinationStream } from "pino";
import { currentRequestId } from "./request-context.server";

/** Cuts what follows "params:" in a database error (Drizzle appends the query's parameters). */
function withoutParams(text: string | undefined): string | undefined {
  return text?.split("\nparams:")[0];
}

/**
 * JSON logs. Never pass a password, token or e-mail address to it; errors are
 * logged without the query parameters a database error carries. The level
 * is set from the environment by getEnv() (setLogLevel), so importing this
 * module never reads the environment.
 */
export const logSerializers = {
  err: (error: unknown) =>
    error instanceof Error
      ? {
          type: error.name,
          message: withoutParams(error.message),
          stack: withoutParams(error.stack),
          code: (error as { code?: unknown }).code,
        }
      : { message: String(error) },
};

/**
 * A logger with this app's settings; every line written while a request is
 * answered carries its id (`requestId`, also sent back as X-Request-Id).
 */
export function createLogger(destination?: DestinationStream) {
  const options: pino.LoggerOptions = {
    level: "info",
    redact: ["password", "*.password", "token", "*.token", "headers.cookie", "email", "*.email"],
    serializers: logSerializers,
    mixin() {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export const logger = createLogger();

export function setLogLevel(level: string): void {
  logger.level = level;
}
