import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { DatabaseStartError, secureDataDir } from "./db/client.server";
import { EnvError, loadEnv } from "./env.server";
import { describeStartFailure } from "./start-failure.server";

/** The error `run` throws. */
async function failureOf(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("describeStartFailure", () => {
  it("a port in use names PORT, on one line", async () => {
    const first = createServer();
    await new Promise<void>((resolve) => first.listen(0, "127.0.0.1", resolve));
    const port = (first.address() as { port: number }).port;
    try {
      const error = await failureOf(
        () =>
          new Promise<void>((resolve, reject) => {
            const second = createServer();
            second.once("error", reject);
            second.listen(port, "127.0.0.1", resolve);
          }),
      );
      const failure = describeStartFailure(error, { host: "127.0.0.1", port });
      expect(failure).toEqual({
        setting: "PORT",
        message: `PORT: 127.0.0.1:${port} is already in use by another process; stop it, or set PORT to a free port`,
        unexpected: false,
      });
    } finally {
      first.close();
    }
  });

  it("a database nothing answers at names DATABASE_URL, without the password", async () => {
    const databaseUrl = "postgres://app:hunter2secret@127.0.0.1:1/ailabs";
    const error = await failureOf(async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
    });
    const failure = describeStartFailure(error, { databaseUrl });
    expect(failure.setting).toBe("DATABASE_URL");
    expect(failure.message).toBe(
      "DATABASE_URL: nothing answers at 127.0.0.1:1/ailabs (is PostgreSQL running and listening there?)",
    );
    expect(failure.message).not.toContain("hunter2");
  });

  it("a database that does not exist says how to create it", () => {
    // What PostgreSQL answers (SQLSTATE 3D000), as node-postgres raises it.
    const error = Object.assign(
      new pg.DatabaseError('database "shop" does not exist', 0, "error"),
      { code: "3D000" },
    );
    const failure = describeStartFailure(error, {
      databaseUrl: "postgres://u:p@db.internal:5433/shop",
    });
    expect(failure.message).toBe(
      'DATABASE_URL: the database "shop" does not exist at db.internal:5433/shop; create it (createdb shop) or fix the name',
    );
  });

  it("a DATA_DIR that cannot be made names DATA_DIR", async () => {
    const parent = mkdtempSync(path.join(tmpdir(), "ailabs-start-"));
    // A file where a folder should be: fails for every user, root included.
    writeFileSync(path.join(parent, "file"), "");
    const dataDir = path.join(parent, "file", "data");
    const error = await failureOf(() => secureDataDir(dataDir));
    const failure = describeStartFailure(error, { dataDir });
    expect(failure.setting).toBe("DATA_DIR");
    expect(failure.message).toMatch(
      new RegExp(`^DATA_DIR: ${dataDir} cannot be written by this user \\(ENOTDIR on `),
    );
    // Permission refused, as for a folder owned by another user.
    const denied = Object.assign(new Error(`EACCES: permission denied, mkdir '${dataDir}'`), {
      code: "EACCES",
      syscall: "mkdir",
      path: dataDir,
    });
    expect(describeStartFailure(denied, { dataDir }).message).toBe(
      `DATA_DIR: ${dataDir} cannot be written by this user (EACCES on ${dataDir}); give it to the server's user (chown) or choose another DATA_DIR`,
    );
  });

  it("the environment's own errors keep their one line and name the first setting", async () => {
    const error = await failureOf(() => loadEnv({ DATABASE_URL: "postgres://db/x" }));
    expect(error).toBeInstanceOf(EnvError);
    expect(describeStartFailure(error, {})).toEqual({
      setting: "BETTER_AUTH_SECRET",
      message: "Invalid environment: BETTER_AUTH_SECRET: required when DATABASE_URL is set",
      unexpected: false,
    });
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "ailabs-start-")), "d");
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const open = await failureOf(() => secureDataDir(dir));
    expect(open).toBeInstanceOf(DatabaseStartError);
    expect(describeStartFailure(open, { dataDir: dir }).setting).toBe("DATA_DIR");
  });

  it("anything else is marked unexpected, its first line kept", () => {
    const failure = describeStartFailure(new Error("boom\n    at somewhere"), {});
    expect(failure).toEqual({
      setting: undefined,
      message: "Start failed: boom",
      unexpected: true,
    });
  });
});
