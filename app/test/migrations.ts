import { readFileSync } from "node:fs";
import path from "node:path";
import { migrationsFolder } from "../server/db/client.server";

/** How many migrations the journal lists: what a fully migrated database has applied. */
export function migrationsInJournal(): number {
  const journal = readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8");
  return (JSON.parse(journal) as { entries: unknown[] }).entries.length;
}
