import cluster from "node:cluster";

/**
 * A server process's questions to the cluster's primary (cluster.server.ts),
 * over the IPC channel node:cluster opens: the metrics of every process, and
 * the rate-limit counters the processes share when there is no Redis.
 */
export type PrimaryRequest =
  | { kind: "metrics" }
  /** Every process carries out a command (commandProcesses), e.g. for an admin page. */
  | { kind: "command"; command: ProcessCommand }
  | {
      kind: "rate";
      op: "hit" | "reset";
      name: string;
      key: string;
      limit: number;
      windowMs: number;
    };

export type PrimaryReply = { ok: true; value: unknown } | { ok: false; error: string };

const requestType = "ailabs:ask-primary";
const replyType = "ailabs:primary-reply";

type Envelope = { type: typeof requestType; id: number; request: PrimaryRequest };
type ReplyEnvelope = { type: typeof replyType; id: number; reply: PrimaryReply };

/** Whether this process is one of several started by the primary (WEB_CONCURRENCY > 1). */
export function inCluster(): boolean {
  return cluster.isWorker && typeof process.send === "function";
}

let nextId = 1;
const pending = new Map<number, (reply: PrimaryReply) => void>();
let listening = false;

/** Asks the primary; rejects when it does not answer within `timeoutMs` or answers an error. */
export function askPrimary<T>(request: PrimaryRequest, timeoutMs: number): Promise<T> {
  if (!listening) {
    listening = true;
    process.on("message", (message: ReplyEnvelope) => {
      if (message?.type !== replyType) return;
      pending.get(message.id)?.(message.reply);
      pending.delete(message.id);
    });
  }
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`the primary process did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    pending.set(id, (reply) => {
      clearTimeout(timer);
      if (reply.ok) resolve(reply.value as T);
      else reject(new Error(reply.error));
    });
    const sent = process.send?.({ type: requestType, id, request } satisfies Envelope);
    if (!sent) {
      clearTimeout(timer);
      pending.delete(id);
      reject(new Error("no channel to the primary process"));
    }
  });
}

/** In the primary: answers one process's questions with `answer`. */
export function answerWorker(
  worker: { send(message: unknown): boolean; isConnected(): boolean },
  message: unknown,
  answer: (request: PrimaryRequest) => Promise<unknown>,
): boolean {
  const envelope = message as Envelope | undefined;
  if (envelope?.type !== requestType) return false;
  answer(envelope.request)
    .then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({
        ok: false as const,
        error: error instanceof Error ? error.message : String(error),
      }),
    )
    .then((reply) => {
      if (worker.isConnected()) {
        worker.send({ type: replyType, id: envelope.id, reply } satisfies ReplyEnvelope);
      }
    });
  return true;
}

/**
 * What the primary has every server process do (commandProcesses): write the
 * funnel's page views counted (the funnel page, before reading), read the
 * offer settings again (the settings page, after a change).
 */
export type ProcessCommand = "flush-page-views" | "refresh-offer-settings";

const commandType = "ailabs:command";
const commandDoneType = "ailabs:command-done";
type CommandEnvelope = { type: typeof commandType; id: number; command: ProcessCommand };
export type CommandDoneEnvelope = { type: typeof commandDoneType; id: number; error?: string };

const commandHandlers = new Map<ProcessCommand, () => Promise<void>>();
let commandsListening = false;

/**
 * In a server process: carries out one message from the primary if it is a
 * command, and answers it through `reply`. A command nothing here handles
 * yet is answered at once: a process still starting has no page views
 * counted, and reads the offer settings after it registers their handler.
 */
export function carryOutCommand(
  message: unknown,
  reply: (done: CommandDoneEnvelope) => void,
): boolean {
  const envelope = message as CommandEnvelope | undefined;
  if (envelope?.type !== commandType) return false;
  const done = (error?: string) => reply({ type: commandDoneType, id: envelope.id, error });
  const handler = commandHandlers.get(envelope.command);
  if (!handler) done();
  else
    handler().then(
      () => done(),
      (error: unknown) => done(error instanceof Error ? error.message : String(error)),
    );
  return true;
}

/**
 * In a server process: answers the primary's commands from now on (called
 * as the process starts, so that a command never waits for its time-out
 * while the process opens the database).
 */
export function listenForCommands(): void {
  if (commandsListening || !inCluster()) return;
  commandsListening = true;
  process.on("message", (message: unknown) => {
    carryOutCommand(message, (done) => process.send?.(done));
  });
}

/** In a server process: how to carry out `command` when the primary sends it. */
export function onProcessCommand(command: ProcessCommand, handler: () => Promise<void>): void {
  commandHandlers.set(command, handler);
  listenForCommands();
}

/** A command as the primary sends it (commandProcesses). */
export function commandMessage(id: number, command: ProcessCommand): CommandEnvelope {
  return { type: commandType, id, command };
}

type CommandTarget = {
  send(message: unknown): boolean;
  isConnected(): boolean;
  on(event: "message", listener: (message: unknown) => void): unknown;
  off(event: "message", listener: (message: unknown) => void): unknown;
};

let nextCommandId = 1;

/** In the primary: has every connected process carry out `command`; resolves when all did. */
export async function commandProcesses(
  workers: readonly CommandTarget[],
  command: ProcessCommand,
  timeoutMs: number,
): Promise<void> {
  const id = nextCommandId++;
  await Promise.all(
    workers
      .filter((w) => w.isConnected())
      .map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const listener = (message: unknown) => {
              const done = message as CommandDoneEnvelope | undefined;
              if (done?.type !== commandDoneType || done.id !== id) return;
              clearTimeout(timer);
              worker.off("message", listener);
              if (done.error) reject(new Error(done.error));
              else resolve();
            };
            const timer = setTimeout(() => {
              worker.off("message", listener);
              reject(new Error(`a server process did not carry out ${command} in ${timeoutMs} ms`));
            }, timeoutMs);
            worker.on("message", listener);
            worker.send(commandMessage(id, command));
          }),
      ),
  );
}
