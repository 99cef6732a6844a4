import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { getEnv } from "../env.server";

// The one place uploaded files are kept: DATA_DIR/uploads. Another store
// (object storage) replaces this module and keeps its functions.

export const maxUploadBytes = 5 * 1024 * 1024;

/**
 * The image types the editor's picker allows (docs/product.md, Admin panel),
 * recognised from their first bytes.
 */
const signatures: { type: string; ext: string; test: (b: Uint8Array) => boolean }[] = [
  {
    type: "image/png",
    ext: "png",
    test: (b) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  {
    type: "image/gif",
    ext: "gif",
    test: (b) =>
      starts(b, [0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61,
  },
  { type: "image/jpeg", ext: "jpg", test: (b) => starts(b, [0xff, 0xd8, 0xff]) },
  { type: "image/bmp", ext: "bmp", test: (b) => starts(b, [0x42, 0x4d]) && b.length > 26 },
  {
    type: "image/x-icon",
    ext: "ico",
    test: (b) => starts(b, [0x00, 0x00, 0x01, 0x00]) && b.length > 6,
  },
];

function starts(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((value, i) => bytes[i] === value);
}

export function sniffImage(bytes: Uint8Array): { type: string; ext: string } | undefined {
  const match = signatures.find((s) => s.test(bytes));
  return match && { type: match.type, ext: match.ext };
}

const namePattern =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|gif|jpg|bmp|ico)$/;
const typeByExt: Record<string, string> = Object.fromEntries(
  signatures.map((s) => [s.ext, s.type]),
);

let scratchDir: string | undefined;

function uploadsDir(): string {
  const { dataDir } = getEnv();
  if (dataDir !== "memory://") return path.join(dataDir, "uploads");
  // A throwaway database keeps its uploads in a fresh private temporary folder.
  scratchDir ??= mkdtempSync(path.join(tmpdir(), "ailabs-uploads-"));
  return scratchDir;
}

export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Stores an image under a fresh name and returns its URL. The type comes from the bytes, never the name. */
export async function saveImage(bytes: Uint8Array): Promise<{ url: string; type: string }> {
  if (bytes.byteLength === 0) throw new UploadError("The file is empty.", 400);
  if (bytes.byteLength > maxUploadBytes) throw new UploadError("Images can be at most 5 MB.", 413);
  const kind = sniffImage(bytes);
  if (!kind) throw new UploadError("Only PNG, GIF, JPEG, BMP and ICO images can be uploaded.", 415);
  const dir = uploadsDir();
  await mkdir(dir, { recursive: true });
  const name = `${randomUUID()}.${kind.ext}`;
  await writeFile(path.join(dir, name), bytes, { flag: "wx" });
  return { url: `/uploads/${name}`, type: kind.type };
}

/** The stored image and its type, or undefined for an unknown or malformed name. */
export async function readImage(
  name: string,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: string } | undefined> {
  if (!namePattern.test(name)) return undefined;
  const type = typeByExt[name.slice(name.lastIndexOf(".") + 1)];
  try {
    const bytes = await readFile(path.join(uploadsDir(), name));
    return type ? { bytes: new Uint8Array(bytes), type } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The document types a vision document may be, recognised from their bytes:
 * PDF, Word (.docx: a ZIP holding word/document.xml) and plain text (UTF-8,
 * without NUL), such as Markdown.
 */
const documentKinds = [
  {
    type: "application/pdf",
    ext: "pdf",
    test: (b: Uint8Array) => starts(b, [0x25, 0x50, 0x44, 0x46, 0x2d]),
  },
  {
    type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ext: "docx",
    test: (b: Uint8Array) =>
      starts(b, [0x50, 0x4b, 0x03, 0x04]) && Buffer.from(b).includes("word/document.xml"),
  },
  { type: "text/plain; charset=utf-8", ext: "txt", test: isText },
] as const;

function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A kind of stored file: its type, its name's extension and how its bytes are recognised. */
type FileKind = { readonly type: string; readonly ext: string; test: (b: Uint8Array) => boolean };

const storedName = (kinds: readonly FileKind[]) =>
  new RegExp(
    `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.(${kinds.map((k) => k.ext).join("|")})$`,
  );

/** Stores `bytes` under a fresh name when they are one of `kinds`; its stored name and type. */
async function saveRecognised(
  bytes: Uint8Array,
  kinds: readonly FileKind[],
  limit: { bytes: number; message: string },
  unknownKind: string,
): Promise<{ name: string; type: string }> {
  if (bytes.byteLength === 0) throw new UploadError("The file is empty.", 400);
  if (bytes.byteLength > limit.bytes) throw new UploadError(limit.message, 413);
  const kind = kinds.find((k) => k.test(bytes));
  if (!kind) throw new UploadError(unknownKind, 415);
  const dir = uploadsDir();
  await mkdir(dir, { recursive: true });
  const name = `${randomUUID()}.${kind.ext}`;
  await writeFile(path.join(dir, name), bytes, { flag: "wx" });
  return { name, type: kind.type };
}

/** A stored file of one of `kinds` and its type, or undefined for an unknown or malformed name. */
async function readRecognised(
  name: string,
  kinds: readonly FileKind[],
  pattern: RegExp,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: string } | undefined> {
  if (!pattern.test(name)) return undefined;
  const ext = name.slice(name.lastIndexOf(".") + 1);
  const type = kinds.find((k) => k.ext === ext)?.type;
  try {
    const bytes = await readFile(path.join(uploadsDir(), name));
    return type ? { bytes: new Uint8Array(bytes), type } : undefined;
  } catch {
    return undefined;
  }
}

const documentNamePattern = storedName(documentKinds);

/**
 * Stores a document under a fresh name, beside the images but never served at
 * /uploads (readImage takes image names only); its stored name and type.
 */
export function saveDocument(bytes: Uint8Array): Promise<{ name: string; type: string }> {
  return saveRecognised(
    bytes,
    documentKinds,
    { bytes: maxUploadBytes, message: "Documents can be at most 5 MB." },
    "Upload a PDF, a Word document (.docx) or a text file.",
  );
}

/** A stored document and its type, or undefined for an unknown or malformed name. */
export function readDocument(
  name: string,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: string } | undefined> {
  return readRecognised(name, documentKinds, documentNamePattern);
}

/** The largest file a product may open: a tool's starter, a video lesson's slides. */
export const maxProductFileBytes = 25 * 1024 * 1024;

/**
 * What a product's file may be, recognised from its bytes: a document (PDF,
 * Word, text), a ZIP archive, or an image the editor takes.
 */
const productFileKinds: readonly FileKind[] = [
  ...documentKinds.filter((k) => k.ext !== "txt"),
  { type: "application/zip", ext: "zip", test: (b) => starts(b, [0x50, 0x4b, 0x03, 0x04]) },
  ...signatures,
  ...documentKinds.filter((k) => k.ext === "txt"),
];

const productFileNamePattern = storedName(productFileKinds);

/** Stores a product's file under a fresh name (never served at /uploads); its stored name and type. */
export function saveProductFile(bytes: Uint8Array): Promise<{ name: string; type: string }> {
  return saveRecognised(
    bytes,
    productFileKinds,
    { bytes: maxProductFileBytes, message: "Files can be at most 25 MB." },
    "Upload a ZIP archive, a PDF, a Word document, a text file or an image.",
  );
}

/** A product's stored file and its type, or undefined for an unknown or malformed name. */
export function readProductFile(
  name: string,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: string } | undefined> {
  return readRecognised(name, productFileKinds, productFileNamePattern);
}

/** Removes a product's stored file; one already gone is no error. */
export async function removeProductFile(name: string): Promise<void> {
  if (!productFileNamePattern.test(name)) return;
  await rm(path.join(uploadsDir(), name), { force: true });
}
