import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = { to: string[]; mail: ParsedMail };

export type TestSmtpServer = {
  /** smtp://127.0.0.1:{port}, for SMTP_URL or createSmtpTransport. */
  url: string;
  received: ReceivedMail[];
  /** The messages received for one recipient. */
  to(address: string): ReceivedMail[];
  /** Refuses the next `times` messages to this recipient: a temporary error (451) unless `code` says. */
  rejectNext(address: string, times?: number, code?: number): void;
  close(): Promise<void>;
};

/** A real SMTP server on 127.0.0.1 and a random port that keeps what it accepts, parsed. */
export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const rejections = new Map<string, number>();
  const codes = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const refused = to.find((address) => (rejections.get(address) ?? 0) > 0);
        if (refused) {
          rejections.set(refused, (rejections.get(refused) ?? 1) - 1);
          const responseCode = codes.get(refused) ?? 451;
          const text = responseCode >= 500 ? "No such mailbox" : "Try again later";
          const error = Object.assign(new Error(text), { responseCode });
          callback(error);
          return;
        }
        simpleParser(Buffer.concat(chunks))
          .then((mail) => {
            received.push({ to, mail });
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    to: (address) => received.filter((r) => r.to.includes(address.toLowerCase())),
    rejectNext(address, times = 1, code = 451) {
      rejections.set(address.toLowerCase(), times);
      codes.set(address.toLowerCase(), code);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
