// A module of its own, importing nothing: a test file's mocks of what
// pglite.server.ts imports (node:child_process) still apply after the test
// setup has handed the copy over through it.

let template: Blob | undefined;

/**
 * Memory databases start from this copy of one already made and migrated
 * (PGlite's dumpDataDir), or from initdb again when it is undefined. The unit
 * tests open one per file: initdb takes some 3 s of CPU, loading the copy a
 * fifth of that.
 */
export function startMemoryDatabasesFrom(copy: Blob | undefined): void {
  template = copy;
}

export function memoryDatabaseTemplate(): Blob | undefined {
  return template;
}
