/**
 * The firmware's line reader (firmware/src/protocol.cpp, `LineReader`): at most 96 bytes before the `\n`,
 * one `\r` before it dropped, empty lines ignored (a host may send `\n` to flush noise), and an overlong line
 * discarded byte by byte up to its `\n` — a flood costs one `err - 1`, never a buffer overrun.
 */
import { MAX_LINE } from '../../protocol/index.ts';

export type LineReaderResult = { readonly kind: 'none' } | { readonly kind: 'line'; readonly line: string } | { readonly kind: 'too-long' };

const NONE: LineReaderResult = { kind: 'none' };

export class StationLineReader {
  private bytes: number[] = [];
  private overflow = false;

  /** Feeds one received byte. */
  feed(byte: number): LineReaderResult {
    if (byte === 0x0a) {
      if (this.overflow) {
        this.reset();
        return { kind: 'too-long' };
      }
      if (this.bytes.at(-1) === 0x0d) this.bytes.pop();
      // Exactly one byte too many was kept, because it might have been a `\r`.
      if (this.bytes.length > MAX_LINE) {
        this.reset();
        return { kind: 'too-long' };
      }
      const line = Buffer.from(this.bytes).toString('latin1');
      this.bytes = [];
      return line.length === 0 ? NONE : { kind: 'line', line };
    }
    if (this.overflow) return NONE;
    if (this.bytes.length >= MAX_LINE + 1) {
      this.overflow = true;
      return NONE;
    }
    this.bytes.push(byte);
    return NONE;
  }

  reset(): void {
    this.bytes = [];
    this.overflow = false;
  }
}
