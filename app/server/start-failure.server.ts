// Why a process could not start, said in one line that names the setting to
// fix (server.ts, cli.ts, `npm run db:migrate`). The operator reads it in
// journald: no stack trace for a failure of the environment they control.

import pg from "pg";
import { DatabaseStartError } from "./db/client.server";
import { EnvError } from "./env.server";

export type StartSettings = {
  host?: string;
  port?: number;
  dataDir?: string;
  databaseUrl?: string;
};

export type StartFailure = {
  /** The setting to look at, when one is to blame. */
  setting: string | undefined;
  /** One line, with no password in it. */
  message: string;
  /** A failure this module does not recognize: a bug, whose stack is worth keeping. */
  unexpected: boolean;
};

type SystemError = Error & {
  code?: string;
  syscall?: string;
  path?: string;
  address?: string;
  port?: number;
  hostname?: string;
};

/** The database DATABASE_URL names, as `host:port/database`: no user, no password. */
export function describeDatabaseUrl(databaseUrl: string): string {
  if (!URL.canParse(databaseUrl)) return "(an unreadable URL)";
  const url = new URL(databaseUrl);
  const host = url.hostname || url.searchParams.get("host") || "localhost";
  return `${host}:${url.port || "5432"}${url.pathname || "/"}`;
}

const oneLine = (text: string) => text.split("\n")[0]?.trim() ?? "";

/** What stopped the start, in one line naming the setting. */
export function describeStartFailure(error: unknown, settings: StartSettings): StartFailure {
  const known = (setting: string | undefined, message: string): StartFailure => ({
    setting,
    message,
    unexpected: false,
  });
  if (error instanceof EnvError || error instanceof DatabaseStartError) {
    const setting = /^Invalid environment: ([A-Z_]+):/.exec(error.message)?.[1];
    return known(
      setting ?? (error instanceof DatabaseStartError ? "DATA_DIR" : undefined),
      oneLine(error.message.replace(/\n\s*/g, " ")),
    );
  }
  const e = (error instanceof Error ? error : new Error(String(error))) as SystemError;
  const code = e.code;

  if (e.syscall === "listen" || (e.syscall === "getaddrinfo" && e.hostname === settings.host)) {
    const where = `${settings.host ?? e.address}:${settings.port ?? e.port}`;
    if (code === "EADDRINUSE") {
      return known(
        "PORT",
        `PORT: ${where} is already in use by another process; stop it, or set PORT to a free port`,
      );
    }
    if (code === "EACCES") {
      return known(
        "PORT",
        `PORT: this user may not listen on ${where} (ports below 1024 need privileges); use a port above 1023 behind the proxy`,
      );
    }
    if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
      return known("HOST", `HOST: ${settings.host} is not an address of this machine (${code})`);
    }
  }

  if (settings.databaseUrl && isDatabaseError(e)) {
    const target = describeDatabaseUrl(settings.databaseUrl);
    const database = new URL(settings.databaseUrl).pathname.slice(1);
    switch (code) {
      case "ECONNREFUSED":
        return known(
          "DATABASE_URL",
          `DATABASE_URL: nothing answers at ${target} (is PostgreSQL running and listening there?)`,
        );
      case "ENOTFOUND":
      case "EAI_AGAIN":
        return known("DATABASE_URL", `DATABASE_URL: the host of ${target} is not found (${code})`);
      case "ETIMEDOUT":
      case "EHOSTUNREACH":
      case "ENETUNREACH":
        return known("DATABASE_URL", `DATABASE_URL: ${target} cannot be reached (${code})`);
      case "3D000":
        return known(
          "DATABASE_URL",
          `DATABASE_URL: the database "${database}" does not exist at ${target}; create it (createdb ${database}) or fix the name`,
        );
      case "28P01":
      case "28000":
        return known(
          "DATABASE_URL",
          `DATABASE_URL: PostgreSQL at ${target} refused the user or password (${oneLine(e.message)})`,
        );
    }
    if (/timeout/i.test(e.message)) {
      return known(
        "DATABASE_URL",
        `DATABASE_URL: ${target} did not answer in time (${oneLine(e.message)})`,
      );
    }
    return known("DATABASE_URL", `DATABASE_URL: ${target}: ${oneLine(e.message)}`);
  }

  if (["EACCES", "EPERM", "EROFS", "ENOTDIR"].includes(code ?? "") && e.path) {
    const inDataDir =
      settings.dataDir && settings.dataDir !== "memory://" && e.path.startsWith(settings.dataDir);
    const setting = inDataDir ? "DATA_DIR" : undefined;
    return known(
      setting,
      `${inDataDir ? `DATA_DIR: ${settings.dataDir}` : e.path} cannot be written by this user (${code} on ${e.path}); give it to the server's user (chown) or choose another${inDataDir ? " DATA_DIR" : ""}`,
    );
  }

  return {
    setting: undefined,
    message: `Start failed: ${oneLine(e.message) || e.name}`,
    unexpected: true,
  };
}

/** A failure of node-postgres to connect, or PostgreSQL refusing (an error with a SQLSTATE). */
function isDatabaseError(e: SystemError): boolean {
  return (
    e instanceof pg.DatabaseError ||
    e.syscall === "connect" ||
    e.syscall === "getaddrinfo" ||
    /connection (terminated|timeout)/i.test(e.message)
  );
}
