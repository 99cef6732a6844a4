import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, request as playwrightRequest, test } from "@playwright/test";
import pg from "pg";
import { AdminApi, createAccountWith, serverHealthy, startServer, uniqueTitle } from "./helpers";

// `npm run cli -- backup FILE` while the server runs and takes writes, then
// the DATA_DIR destroyed, `restore FILE` into it, and every row found again.

const root = path.resolve(import.meta.dirname, "../..");
test.describe.configure({ timeout: 120_000 });

/** The CLI on `dataDir` (never DATABASE_URL: these commands are for the embedded database). */
async function cli(dataDir: string, ...args: string[]) {
  type Ran = { code: number; stdout: string; stderr: string };
  return promisify(execFile)(path.join(root, "node_modules/.bin/tsx"), ["cli.ts", ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    timeout: 60_000,
  }).then(
    ({ stdout, stderr }): Ran => ({ code: 0, stdout, stderr }),
    (error: Ran) => error,
  );
}

/** Every user, purchase, course and progress row, through the server's socket. */
async function everyRow(dataDir: string) {
  const client = new pg.Client({
    host: dataDir,
    port: 5432,
    user: "postgres",
    database: "postgres",
  });
  await client.connect();
  try {
    const all = async (sql: string) => (await client.query(sql)).rows;
    return {
      users: await all(`select id, email, name, is_admin from "user" order by id`),
      purchases: await all(`select id, user_id, status, amount_cents from purchase order by id`),
      courses: await all(`select id, title from course order by id`),
      progress: await all(
        `select user_id, chapter_id, completed_at from chapter_progress order by user_id, chapter_id`,
      ),
    };
  } finally {
    await client.end();
  }
}

test("a backup taken while the server runs restores every user, purchase, course and progress row", async () => {
  const work = mkdtempSync(path.join(os.tmpdir(), "ailabs-backup-"));
  const dataDir = path.join(work, "data");
  const file = path.join(work, "backup.tar.gz");
  let server = await startServer(dataDir, { LOG_LEVEL: "warn" });
  try {
    await serverHealthy(server);
    const origin = server.origin;
    const admin = await playwrightRequest.newContext({ baseURL: origin });
    const owner = await createAccountWith(admin, { paid: false, origin });
    expect((await cli(dataDir, "admin", "grant", owner.email)).stdout).toContain("Granted admin");
    const courseId = await new AdminApi(admin, origin).createCourse(uniqueTitle("Backed up"));
    expect(courseId).toBeTruthy();

    // Members who paid and completed the demo course's first chapter.
    const { rows } = await (async () => {
      const client = new pg.Client({ host: dataDir, port: 5432, user: "postgres" });
      await client.connect();
      const result = await client.query(
        `select c.id, c.course_id from chapter c join course k on k.id = c.course_id
         where k.title like 'Start Here%' order by c.sort_order limit 1`,
      );
      await client.end();
      return result;
    })();
    const chapter = rows[0] as { id: string; course_id: string };
    for (let i = 0; i < 3; i++) {
      const member = await playwrightRequest.newContext({ baseURL: origin });
      await createAccountWith(member, { paid: true, origin });
      const done = await member.post(`/course/${chapter.course_id}?chapter=${chapter.id}`, {
        form: { chapterId: chapter.id, done: "true" },
        headers: { Origin: origin },
      });
      // Should it fail, the answer and the server's log say why.
      const said = done.ok() ? "" : `${(await done.text()).slice(0, 400)}\n${server.output()}`;
      expect(done.status(), said).toBe(200);
      await member.dispose();
    }

    // Sign-ups keep coming while the backup is taken.
    let writing = true;
    const writer = (async () => {
      while (writing) await createAccountWith(admin, { paid: true, origin }).catch(() => {});
    })();
    const before = await everyRow(dataDir);
    const backup = await cli(dataDir, "backup", file);
    writing = false;
    await writer;
    await admin.dispose();
    expect(backup.stdout).toContain("from the running server");
    // The server refuses a restore over the DATA_DIR it holds.
    const refused = await cli(dataDir, "restore", file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("A server holds DATA_DIR");

    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    rmSync(dataDir, { recursive: true });

    const restored = await cli(dataDir, "restore", file);
    expect(restored.stderr).toBe("");
    expect(restored.stdout).toContain(`Restored ${file} into ${dataDir}`);
    expect(existsSync(path.join(dataDir, "auth-secret"))).toBe(true);

    server = await startServer(dataDir, { LOG_LEVEL: "warn" });
    await serverHealthy(server);
    const after = await everyRow(dataDir);
    // Everything there before the backup began is there, with the sign-ups and
    // purchases committed before the copy.
    for (const key of ["users", "purchases", "courses", "progress"] as const) {
      expect(after[key], key).toEqual(expect.arrayContaining(before[key]));
    }
    expect(after.courses).toEqual(before.courses);
    expect(after.progress).toEqual(before.progress);
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
    rmSync(work, { recursive: true, force: true });
  }
});
