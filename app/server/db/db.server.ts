import { getEnv } from "../env.server";
import { type Database, type Db, openDatabase } from "./client.server";

let opening: Promise<Database> | undefined;

/** The process's one database (PGlite admits one opener per directory), opened and migrated on first use. */
export function getDatabase(): Promise<Database> {
  if (!opening) {
    const env = getEnv();
    opening = openDatabase({ dataDir: env.dataDir, databaseUrl: env.databaseUrl });
    opening.catch(() => {
      opening = undefined;
    });
  }
  return opening;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

export async function closeDatabase(): Promise<void> {
  if (!opening) return;
  const database = await opening;
  opening = undefined;
  await database.close();
}
