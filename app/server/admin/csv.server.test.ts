import { createServer, type Server } from "node:http";
import { Writable } from "node:stream";
import { getRequestListener } from "@hono/node-server";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createUser } from "~/test/helpers";
import { type Db, rowsOf } from "../db/client.server";
import { getDb } from "../db/db.server";
import { createLogger, logger } from "../logger.server";
import { csvFailedLine, csvResponse } from "./csv.server";
import { allMembers } from "./members.server";

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((done) => s.close(done)))));

/** Serves one response on node:http through the adaptor production uses, and downloads it. */
async function download(response: Response): Promise<{ status: number; text: string }> {
  const server = createServer(getRequestListener(() => response));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const answer = await fetch(`http://127.0.0.1:${port}/members.csv`);
  return { status: answer.status, text: await answer.text() };
}

/**
 * The members export for one e-mail address whose second batch fails in the
 * database, as a dropped connection or a cancelled statement would: the error
 * Drizzle throws names the SQL, and the address is one of its parameters.
 */
async function* exportFailingAfterOneBatch(db: Db, email: string) {
  const first = await allMembers(db, { access: "all", q: email }).next();
  if (!first.done) yield first.value;
  await rowsOf(db, sql`select ${email}::integer as id from "user" where email = ${email}`);
}

describe("a CSV download that fails part way", () => {
  it("ends with a short error line, never the SQL or its parameters, and logs it without them", async () => {
    const db = await getDb();
    const member = await createUser({ paid: true });
    const errorLog = vi.spyOn(logger, "error");
    const { status, text } = await download(
      csvResponse(
        "members.csv",
        ["id", "email"],
        exportFailingAfterOneBatch(db, member.email),
        (m) => [m.id, m.email],
      ),
    );

    expect(status).toBe(200);
    // The rows read before the failure, then the error line, and nothing else.
    expect(text).toBe(`id,email\r\n${member.id},${member.email}\r\n${csvFailedLine}`);
    expect(csvFailedLine).toMatch(/^Error: .{20,120}\r\n$/);
    expect(text).not.toMatch(/select|params|integer/i);

    // Logged once, through the logger whose serializer leaves the parameters out.
    expect(errorLog).toHaveBeenCalledTimes(1);
    const [fields, message] = errorLog.mock.calls[0] as unknown as [
      Record<string, unknown>,
      string,
    ];
    expect(message).toBe("CSV export failed");
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    createLogger(sink).error(fields, message);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"msg":"CSV export failed"');
    expect(lines[0]).toContain("Failed query");
    expect(lines[0]).not.toContain(member.email);
  });
});
