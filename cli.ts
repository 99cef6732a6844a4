// The operator CLI: `npm run cli -- --help`. The commands are in app/server/operator/
// (cli.server.ts parses and prints, connect.server.ts reaches the database).

import { EnvError, loadDotEnv, loadEnv } from "./app/server/env.server";

const argv = process.argv.slice(2);
const out = (text: string) => process.stdout.write(`${text}\n`);
const err = (text: string) => process.stderr.write(`${text}\n`);

let env: ReturnType<typeof loadEnv>;
try {
  // `.env` in the working directory, under what is already set (as the server reads it).
  loadDotEnv();
  env = loadEnv();
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  err(error.message);
  process.exit(1);
}

// Imported once the environment is known good.
const { OperatorDbError, openOperatorDatabase } = await import(
  "./app/server/operator/connect.server"
);
const { runCli } = await import("./app/server/operator/cli.server");
const { parseDataCommand, runDataCommand } = await import(
  "./app/server/operator/data-commands.server"
);

let database: Awaited<ReturnType<typeof openOperatorDatabase>> | undefined;
let code: number;
const dataCommand = parseDataCommand(argv);
try {
  code = dataCommand
    ? // Backup, restore and the copy to PostgreSQL work on DATA_DIR itself.
      await runDataCommand(dataCommand, env, { out, err })
    : await runCli(argv, {
        db: async () => {
          database = await openOperatorDatabase(env);
          return database.db;
        },
        authSecret: env.authSecret,
        out,
        err,
      });
} catch (error) {
  if (error instanceof OperatorDbError) {
    err(error.message);
  } else {
    // The database could not be reached (DATABASE_URL, DATA_DIR): one line naming the setting.
    const { describeStartFailure } = await import("./app/server/start-failure.server");
    const failure = describeStartFailure(error, env);
    err(failure.unexpected ? `Failed: ${(error as Error).message}` : failure.message);
  }
  code = 1;
} finally {
  await database?.close().catch(() => {});
}
process.exit(code);
