import { readFileSync } from "node:fs";
import { inject } from "vitest";
import { startMemoryDatabasesFrom } from "~/server/db/memory-template.server";

// Every memory database of this file starts from the run's migrated copy (app/test/global-setup.ts).
startMemoryDatabasesFrom(new Blob([readFileSync(inject("memoryDatabaseTemplate"))]));
