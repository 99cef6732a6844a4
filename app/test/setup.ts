import { readFileSync } from "node:fs";
import { inject } from "vitest";
import { startMemoryDatabasesFrom } from "~/server/db/memory-template.server";

// Every memory database of this file starts from the run's migrated copy (app/test/global-setup.ts).
startMemoryDatabasesFrom(new Blob([readFileSync(inject("memoryDatabaseTemplate"))]));

// On PostgreSQL this worker's files run on the worker's own database (app/test/global-setup.ts),
// set before the file imports the app; the servers and commands a test starts inherit it.
const workerDatabase = inject("workerDatabaseUrls")[Number(process.env.VITEST_POOL_ID ?? 1) - 1];
if (process.env.DATABASE_URL && workerDatabase) process.env.DATABASE_URL = workerDatabase;
