import { busyRetryAfterSeconds } from "~/server/auth/password.server";

/** A busy server (status 503, decision 026) says when to try again; other refusals say nothing more. */
export function busyHeaders(status: number): HeadersInit | undefined {
  return status === 503 ? { "Retry-After": String(busyRetryAfterSeconds) } : undefined;
}
