import { fstatSync } from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";

/*
 * The embedded database's files, with the size of each relation file kept
 * in memory (decision 048).
 *
 * PostgreSQL asks a relation file's size by seeking to its end: the planner
 * does for the table and every index of every table a statement names, each
 * time it plans, and so do scans and the triggers' statements. PGlite's file
 * layer (Emscripten's NODEFS) answers each such seek with an fstat system
 * call and a new Stats object: about 1.5 ms of a member request's 10-15 ms,
 * and garbage for the collector.
 *
 * Here a file's size is read once, at its first seek to the end, and then
 * kept up to date from the writes made through the same layer: a write past
 * the end moves it. This process holds the data directory's lock, so no other
 * process writes its files. Anything else that can change a size or which
 * file a name means forgets what is kept: a truncation (by descriptor or by
 * name) forgets that file, a rename or an unlink forgets every file (they are
 * rare: a checkpoint recycling WAL, a dropped or rewritten relation).
 */

type FileNode = { mode: number };
type Stream = { node: FileNode; nfd: number };
type Ops = Record<string, ((...args: never[]) => unknown) | undefined>;
type EmscriptenFs = {
  isFile(mode: number): boolean;
  ErrnoError: new (errno: number) => Error;
  filesystems: { NODEFS: { stream_ops: Ops; node_ops: Ops } };
};

const seekEnd = 2;
const einval = 28;

/** Patches `FS`'s NODEFS (one per PGlite instance) to keep file sizes. */
export function keepFileSizes(FS: EmscriptenFs): void {
  const { stream_ops: streams, node_ops: nodes } = FS.filesystems.NODEFS;
  /** A file's size, while nothing but our own writes has changed it. */
  let sizes = new WeakMap<FileNode, number>();
  const forgetAll = () => {
    sizes = new WeakMap();
  };

  const llseek = streams.llseek as (stream: Stream, offset: number, whence: number) => number;
  streams.llseek = (stream: Stream, offset: number, whence: number) => {
    if (whence !== seekEnd || !FS.isFile(stream.node.mode)) return llseek(stream, offset, whence);
    let size = sizes.get(stream.node);
    if (size === undefined) {
      size = fstatSync(stream.nfd).size;
      sizes.set(stream.node, size);
    }
    const position = offset + size;
    if (position < 0) throw new FS.ErrnoError(einval);
    return position;
  };

  const write = streams.write as (
    stream: Stream,
    buffer: unknown,
    offset: number,
    length: number,
    position: number,
  ) => number;
  streams.write = (
    stream: Stream,
    buffer: unknown,
    offset: number,
    length: number,
    position: number,
  ) => {
    const written = write(stream, buffer, offset, length, position);
    const size = sizes.get(stream.node);
    if (size !== undefined && position + written > size) sizes.set(stream.node, position + written);
    return written;
  };

  // Called unbound by Emscripten (FS.doSetAttr): no `this` in these.
  for (const [ops, name] of [
    [streams, "setattr"],
    [nodes, "setattr"],
  ] as const) {
    const original = ops[name] as
      | ((target: Stream | FileNode, attr: unknown) => unknown)
      | undefined;
    if (!original) continue;
    ops[name] = (target: Stream | FileNode, attr: unknown) => {
      sizes.delete("node" in target ? target.node : target);
      return original(target, attr);
    };
  }
  for (const name of ["rename", "unlink"]) {
    const original = nodes[name] as ((...args: unknown[]) => unknown) | undefined;
    if (!original) continue;
    nodes[name] = (...args: unknown[]) => {
      try {
        return original(...args);
      } finally {
        forgetAll();
      }
    };
  }
}

/** PGlite's NodeFS for `dataDir`, keeping file sizes (keepFileSizes). */
export class SizeKeepingNodeFS extends NodeFS {
  override init(pg: PGlite, opts: Parameters<NodeFS["init"]>[1]) {
    const preRun = [
      ...((opts.preRun as ((mod: { FS: unknown }) => void)[] | undefined) ?? []),
      (mod: { FS: unknown }) => keepFileSizes(mod.FS as EmscriptenFs),
    ];
    return super.init(pg, { ...opts, preRun } as typeof opts);
  }
}
