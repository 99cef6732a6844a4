// The operator CLI (`npm run cli -- ...`, wired in cli.ts): parsing the
// command line, running the command, printing its result. The commands on
// users are in accounts.server.ts, those on failed e-mail in
// ../mail/failed.server.ts, and how the CLI reaches the database in
// connect.server.ts. Every command is one lookup and/or one write statement,
// never a transaction: over the PGlite socket the statements share the
// server's single session.

import { type FunnelProductKey, funnelProductKeys } from "~/config/site";
import { cliActor, recordAudit } from "../audit-log.server";
import type { Db } from "../db/client.server";
import { type FailedMail, listFailedMail, retryFailedMail } from "../mail/failed.server";
import { openPaymentIssues, type PaymentIssue } from "../payments/payment-issues.server";
import { grantAccess, listUsers, revokeAccess, setAdmin, type UserRow } from "./accounts.server";
import type { CliIo } from "./cli-io.server";
import { type DemoCounts, demoDefaults, demoLimits, makeDemoData } from "./demo-data.server";
import { rekeyTwoFactor, resetTwoFactor } from "./two-factor.server";

export const usage = `Usage: npm run cli -- COMMAND

Commands:
  admin grant EMAIL     make the user an admin
  admin revoke EMAIL    take admin away from the user
  access grant EMAIL [PRODUCT]
                        give Lifetime Access, or another product (bump-vip,
                        white-label, custom-saas): a manual purchase, amount 0
  access revoke EMAIL   mark all the user's completed purchases refunded
  users list            every user: e-mail, name, admin, access, created
  two-factor reset EMAIL
                        turn two-factor off for a user locked out of it (lost
                        authenticator and recovery codes): deletes the key and
                        codes, ends their sessions; they sign in with the password
  two-factor rekey OLD_SECRET_FILE
                        after BETTER_AUTH_SECRET changed: encrypt the stored
                        two-factor keys again with the current secret, reading
                        the old one from the file (docs/deploy.md)
  mail failed           unsent e-mail that failed at least once, with its last error
  mail retry EMAIL      send the failed e-mail to EMAIL again from now (fresh attempts)
  mail retry --all      the same for every failed e-mail
  payments issues       paid payments that granted nothing (not the plan, or no
                        such user), for you to resolve in Stripe or by hand
  demo data --throwaway [MEMBERS [PURCHASES]]
                        fill a THROW-AWAY database with made-up members (20000),
                        purchases (50000), progress, page views and audit entries,
                        to try the admin console at scale
  backup FILE           write DATA_DIR's embedded database, auth secret and uploads
                        to FILE (.tar.gz), also while the server runs
  restore FILE          unpack such a FILE into an empty DATA_DIR no server holds
  copy-to-postgres URL  copy every row of the embedded database (server stopped)
                        into a new PostgreSQL database (docs/deploy.md)
  --help                this text

E-mail addresses match case-insensitively. Uses the server's DATA_DIR or
DATABASE_URL; works while the server runs.`;

type Command =
  | { kind: "help" }
  | { kind: "admin"; grant: boolean; email: string }
  | { kind: "access"; grant: boolean; email: string; product?: FunnelProductKey }
  | { kind: "users-list" }
  | { kind: "two-factor-reset"; email: string }
  | { kind: "two-factor-rekey"; oldSecretFile: string }
  | { kind: "mail-failed" }
  | { kind: "mail-retry"; email: string | null }
  | { kind: "payment-issues" }
  | { kind: "demo-data"; counts: DemoCounts };

/** The command named by argv (without `node cli.ts`), or undefined when it names none. */
export function parseCommand(argv: readonly string[]): Command | undefined {
  const [area, verb, email, ...rest] = argv;
  if (argv.length === 0 || (argv.length === 1 && ["--help", "-h", "help"].includes(area ?? ""))) {
    return { kind: "help" };
  }
  if (area === "access" && verb === "grant" && rest.length === 1) {
    const product = rest[0] as FunnelProductKey;
    if (!email || email.startsWith("-") || !funnelProductKeys.includes(product)) return undefined;
    return { kind: area, grant: true, email, product };
  }
  if ((area === "admin" || area === "access") && (verb === "grant" || verb === "revoke")) {
    if (!email || email.startsWith("-") || rest.length > 0) return undefined;
    return { kind: area, grant: verb === "grant", email };
  }
  if (area === "users" && verb === "list" && argv.length === 2) return { kind: "users-list" };
  if (area === "two-factor" && email && !email.startsWith("-") && rest.length === 0) {
    if (verb === "reset") return { kind: "two-factor-reset", email };
    if (verb === "rekey") return { kind: "two-factor-rekey", oldSecretFile: email };
  }
  if (area === "mail" && verb === "failed" && argv.length === 2) return { kind: "mail-failed" };
  if (area === "payments" && verb === "issues" && argv.length === 2) {
    return { kind: "payment-issues" };
  }
  if (area === "demo" && verb === "data" && email === "--throwaway" && rest.length <= 2) {
    const [members = demoDefaults.members, purchases = demoDefaults.purchases] = rest.map(Number);
    const valid = (n: number, max: number) => Number.isInteger(n) && n >= 1 && n <= max;
    if (!valid(members, demoLimits.members) || !valid(purchases, demoLimits.purchases)) {
      return undefined;
    }
    return { kind: "demo-data", counts: { members, purchases } };
  }
  if (area === "mail" && verb === "retry" && email && rest.length === 0) {
    if (email === "--all") return { kind: "mail-retry", email: null };
    if (!email.startsWith("-")) return { kind: "mail-retry", email };
  }
  return undefined;
}

/** Runs one CLI command and returns the process exit code (0 done, 1 failed, 2 bad usage). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const command = parseCommand(argv);
  if (!command) {
    io.err(`Unknown command: ${argv.join(" ")}\n\n${usage}`);
    return 2;
  }
  if (command.kind === "help") {
    io.out(usage);
    return 0;
  }
  const db = typeof io.db === "function" ? await io.db() : io.db;
  const code = await execute(db, io, command);
  // Every command is in the owner's audit log (/admin/audit), with what it was given.
  const words = argv.filter((word) => word !== ("email" in command ? command.email : null));
  await recordAudit(db, cliActor(), {
    kind: "cli.command",
    target: "email" in command ? command.email : null,
    detail: `${words.join(" ")} (exit ${code})`,
  });
  return code;
}

async function execute(db: Db, io: CliIo, command: Exclude<Command, { kind: "help" }>) {
  switch (command.kind) {
    case "admin":
      return setAdmin(db, io, command.email, command.grant);
    case "access":
      return command.grant
        ? grantAccess(db, io, command.email, command.product)
        : revokeAccess(db, io, command.email);
    case "two-factor-reset":
      return resetTwoFactor(db, io, command.email);
    case "two-factor-rekey":
      if (!io.authSecret) {
        io.err("No auth secret: set BETTER_AUTH_SECRET (or DATA_DIR, where it is kept).");
        return 1;
      }
      return rekeyTwoFactor(db, io, command.oldSecretFile, io.authSecret);
    case "users-list":
      printListing(io, await listUsers(db), userColumns, "user", "No users.");
      return 0;
    case "mail-failed":
      printListing(io, await listFailedMail(db), failedMailColumns, "message", "No failed e-mail.");
      return 0;
    case "payment-issues":
      printListing(
        io,
        await openPaymentIssues(db),
        paymentIssueColumns,
        "payment",
        "No payments need you.",
      );
      return 0;
    case "demo-data": {
      const added = await makeDemoData(db, command.counts);
      io.out(`Added ${added.members} demo members and ${added.purchases} purchases.`);
      return 0;
    }
    case "mail-retry": {
      const count = await retryFailedMail(db, command.email);
      io.out(`${count} message${count === 1 ? "" : "s"} queued to be sent again.`);
      return 0;
    }
  }
}

/** Control characters (a name could hold terminal escapes) shown as `?`. */
function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
}

/** A table's columns: each a heading and how a row shows in it. */
type Columns<T> = readonly (readonly [string, (row: T) => string])[];

/**
 * The rows as a table under the headings, then how many there are (`noun`,
 * plural past one); `empty` when there are none. Control characters show as `?`.
 */
function printListing<T>(
  io: CliIo,
  rows: readonly T[],
  columns: Columns<T>,
  noun: string,
  empty: string,
): void {
  if (rows.length === 0) {
    io.out(empty);
    return;
  }
  printTable(io, [
    columns.map(([heading]) => heading),
    ...rows.map((row) => columns.map(([, cell]) => printable(cell(row)))),
  ]);
  io.out(`${rows.length} ${noun}${rows.length === 1 ? "" : "s"}.`);
}

const yesNo = (b: boolean) => (b ? "yes" : "no");

const userColumns: Columns<UserRow> = [
  ["EMAIL", (r) => r.email],
  ["NAME", (r) => r.name],
  ["ADMIN", (r) => yesNo(r.isAdmin)],
  ["ACCESS", (r) => yesNo(r.hasAccess)],
  ["CREATED", (r) => r.createdAt.toISOString().slice(0, 10)],
];

const failedMailColumns: Columns<FailedMail> = [
  ["TO", (r) => r.to],
  ["SUBJECT", (r) => r.subject],
  ["ATTEMPTS", (r) => String(r.attempts)],
  ["CREATED", (r) => r.createdAt.toISOString().slice(0, 16).replace("T", " ")],
  ["LAST ERROR", (r) => r.lastError ?? ""],
];

const paymentIssueColumns: Columns<PaymentIssue> = [
  ["PROVIDER", (r) => r.provider],
  ["REFERENCE", (r) => r.providerRef],
  ["REASON", (r) => r.reason],
  ["USER REF", (r) => r.userRef ?? ""],
  ["AMOUNT", (r) => `${(r.amountCents / 100).toFixed(2)} ${r.currency.toUpperCase()}`],
  ["RECEIVED", (r) => r.createdAt.toISOString().slice(0, 16).replace("T", " ")],
];

/** Columns padded to their widest cell; the last column is not padded. */
function printTable(io: CliIo, table: readonly (readonly string[])[]): void {
  const widths = table[0]?.map((_, i) => Math.max(...table.map((cells) => cells[i]?.length ?? 0)));
  for (const cells of table) {
    io.out(
      cells
        .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths?.[i] ?? 0)))
        .join("  ")
        .trimEnd(),
    );
  }
}
