// `npm run db:migrate`: applies the committed migrations to DATABASE_URL, or to the PGlite in
// DATA_DIR. Needs only those two settings (and reads .env like the server).

import { DatabaseLockedError, openDatabase } from "../db/client.server";
import { loadDatabaseEnv, loadDotEnv } from "../env.server";
import { describeStartFailure } from "../start-failure.server";

let env: ReturnType<typeof loadDatabaseEnv> | undefined;
try {
  loadDotEnv();
  env = loadDatabaseEnv();
  const database = await openDatabase(env);
  await database.close();
  console.log(`Migrations applied to ${env.databaseUrl ? "PostgreSQL" : env.dataDir}.`);
} catch (error) {
  if (error instanceof DatabaseLockedError) {
    console.log(`${error.message}\nA running server applies the migrations itself when it starts.`);
  } else {
    const failure = describeStartFailure(error, env ?? {});
    console.error(failure.message);
    if (failure.unexpected) console.error(error);
    process.exit(1);
  }
}
