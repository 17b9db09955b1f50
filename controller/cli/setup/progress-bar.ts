/**
 * The set-up commands' progress line: `[#########.........] 23/69  R10  Place red 10 card (R10) on seat-1`.
 * On a terminal it is rewritten in place (Output.progress); lines printed meanwhile go above it.
 */
import type { Output } from '../output.ts';

/** A bar of `width` cells, filled in proportion to `done` of `total`. */
export function progressBar(done: number, total: number, width = 18): string {
  const filled = total <= 0 ? width : Math.round((Math.min(done, total) / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`;
}

/** An Output wrapper that keeps the progress line below whatever is printed. */
export class ProgressLine {
  private readonly io: Output;
  private text = '';

  constructor(io: Output) {
    this.io = io;
  }

  /** Replaces the progress line. */
  show(text: string): void {
    this.text = text;
    this.io.progress(text);
  }

  /** Prints a line for the user above the progress line. */
  out(line: string): void {
    this.io.progress('');
    this.io.out(line);
    this.io.progress(this.text);
  }

  /** Prints an error line above the progress line. */
  err(line: string): void {
    this.io.progress('');
    this.io.err(line);
    this.io.progress(this.text);
  }

  /** Removes the progress line (before the final summary). */
  clear(): void {
    this.text = '';
    this.io.progress('');
  }
}
