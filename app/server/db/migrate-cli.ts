// `npm run db:migrate`: applies the committed migrations to DATABASE_URL, or to the PGlite in DATA_DIR.
import { EnvError, loadEnv } from "../env.server";
import { DatabaseLockedError, DatabaseStartError, openDatabase } from "./client.server";

try {
  const env = loadEnv();
  const database = await openDatabase({ dataDir: env.dataDir, databaseUrl: env.databaseUrl });
  await database.close();
  console.log(`Migrations applied to ${env.databaseUrl ? "PostgreSQL" : env.dataDir}.`);
} catch (error) {
  if (error instanceof DatabaseLockedError) {
    console.log(`${error.message}\nA running server applies the migrations itself when it starts.`);
  } else {
    const known = error instanceof EnvError || error instanceof DatabaseStartError;
    console.error(known ? error.message : error);
    process.exit(1);
  }
}
