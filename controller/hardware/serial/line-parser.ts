/**
 * @serialport/parser-readline with a bound on the unterminated tail it buffers.
 *
 * The stock parser keeps everything up to the next `\n`. A station that sends noise without newlines (a
 * wrong baud rate, a board running something else) would make that buffer grow for as long as the port is
 * open. Like the firmware's line reader, this one discards the bytes of an overlong line as they arrive, up
 * to the next `\n`, and reports the loss once. Lines up to `maxBufferedBytes` are delivered whole, so the
 * codec still sees (and names) a line that is merely a little too long.
 *
 * Decoding is `latin1`: one byte is one character, so a byte outside printable ASCII stays visible to the
 * codec (as `BAD_CHARACTER`) instead of turning into a multi-byte replacement character.
 */
import { ReadlineParser } from '@serialport/parser-readline';
import type { TransformCallback } from 'node:stream';

/** How much of an unterminated line is kept before it is discarded. */
export const DEFAULT_MAX_BUFFERED_BYTES = 512;

export class BoundedLineParser extends ReadlineParser {
  private readonly maxBufferedBytes: number;
  private readonly onOverflow: (discardedBytes: number) => void;
  private discarding = false;

  /** `onOverflow` is called once per overlong line, with the number of bytes dropped when it was cut. */
  constructor(onOverflow: (discardedBytes: number) => void, maxBufferedBytes = DEFAULT_MAX_BUFFERED_BYTES) {
    super({ delimiter: '\n', encoding: 'latin1' });
    this.maxBufferedBytes = maxBufferedBytes;
    this.onOverflow = onOverflow;
  }

  override _transform(chunk: Buffer, encoding: BufferEncoding, callback: TransformCallback): void {
    let data = chunk;
    if (this.discarding) {
      const newline = data.indexOf(0x0a);
      if (newline < 0) {
        callback();
        return;
      }
      // The overlong line ends here; what follows is a fresh line.
      this.discarding = false;
      data = data.subarray(newline + 1);
    }
    super._transform(data, encoding, (error) => {
      if (this.buffer.length > this.maxBufferedBytes) {
        const dropped = this.buffer.length;
        this.buffer = Buffer.alloc(0);
        this.discarding = true;
        this.onOverflow(dropped);
      }
      callback(error);
    });
  }
}
