/**
 * Small JSON files the runtime keeps (tag registry, calibration): read with a clear error for a missing or
 * corrupted file, written atomically (temporary file, fsync, rename) so a crash or power cut mid-write leaves
 * the old file intact rather than half a file.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { reject, type Checked, type Invalid, type Ok, type Result } from '../kernel/result.ts';

export type ReadResult = Result<{ readonly value: unknown }, 'NOT_FOUND' | 'UNREADABLE' | 'CORRUPT'>;

export function readJsonFile(file: string): ReadResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'NOT_FOUND' : 'UNREADABLE';
    return reject(code, `${file}: ${(error as Error).message}`);
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return reject('CORRUPT', `${file} is not valid JSON (${(error as Error).message}); it was left untouched`);
  }
}

/**
 * Loads a document the runtime keeps (the tag registry, the calibration): a missing file is the `empty`
 * document (`created`), an unreadable one is `codes.unreadable`, and one that is not JSON or fails `parse`
 * is `codes.corrupt` with every problem, each prefixed with the file. A damaged file is never replaced.
 */
export function loadJsonDocument<T, U extends string, K extends string>(
  file: string, empty: T, parse: (value: unknown) => Checked<{ document: T }>,
  codes: { readonly unreadable: U; readonly corrupt: K },
): Ok<{ readonly document: T; readonly created: boolean }> | (Invalid & { readonly code: U | K }) {
  const read = readJsonFile(file);
  if (!read.ok) {
    if (read.code === 'NOT_FOUND') return { ok: true, document: empty, created: true };
    return { ok: false, code: read.code === 'CORRUPT' ? codes.corrupt : codes.unreadable, errors: [read.message] };
  }
  const parsed = parse(read.value);
  if (!parsed.ok) return { ok: false, code: codes.corrupt, errors: parsed.errors.map((e) => `${file}: ${e}`) };
  return { ok: true, document: parsed.document, created: false };
}

export function writeJsonAtomic(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, `${JSON.stringify(value, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}
