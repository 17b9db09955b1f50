/**
 * Small JSON files the runtime keeps (tag registry, calibration): read with a clear error for a missing or
 * corrupted file, written atomically (temporary file, fsync, rename) so a crash or power cut mid-write leaves
 * the old file intact rather than half a file.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export type ReadResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly code: 'NOT_FOUND' | 'UNREADABLE' | 'CORRUPT'; readonly message: string };

export function readJsonFile(file: string): ReadResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'NOT_FOUND' : 'UNREADABLE';
    return { ok: false, code, message: `${file}: ${(error as Error).message}` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, code: 'CORRUPT', message: `${file} is not valid JSON (${(error as Error).message}); it was left untouched` };
  }
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
