import type { Db } from "../db/client.server";

/** What a CLI command works with: its database, the auth secret, and where it prints. */
export type CliIo = {
  /** The database, or a function opening it (called only by commands that need it). */
  db: Db | (() => Promise<Db>);
  /** The current auth secret (BETTER_AUTH_SECRET, or DATA_DIR/auth-secret): `two-factor rekey`. */
  authSecret?: string;
  out: (text: string) => void;
  err: (text: string) => void;
};
