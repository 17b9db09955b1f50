/**
 * A size limit on incoming MQTT packets, in front of aedes (which has none: its parser collects a packet
 * whole before looking at it, so a 200 MB PUBLISH costs 200 MB). The guard reads each packet's fixed header —
 * one type byte, then the "remaining length" in 1–4 bytes of 7 bits — as the bytes stream by, and closes the
 * connection as soon as a header announces more than the limit. Bytes are passed on unchanged and never
 * copied, so the broker holds at most one packet of at most the limit per connection.
 */
import { Duplex } from 'node:stream';

/** The largest packet the brokers accept, bytes (fixed header included); also written into the Mosquitto config. */
export const MAX_PACKET_BYTES = 256 * 1024;

/** Where the scanner is within the current packet. */
type ScanState =
  | { readonly at: 'type' }
  | { readonly at: 'length'; readonly value: number; readonly multiplier: number; readonly headerBytes: number }
  | { readonly at: 'body'; readonly left: number };

/**
 * Follows MQTT packet boundaries across chunks. `feed` returns the size a packet announced when it is over the
 * limit (or malformed: a fifth length byte), else undefined.
 */
export class PacketScanner {
  private state: ScanState = { at: 'type' };

  constructor(private readonly maxBytes: number) {}

  feed(chunk: Uint8Array): number | undefined {
    let i = 0;
    while (i < chunk.length) {
      const s = this.state;
      if (s.at === 'body') {
        const take = Math.min(s.left, chunk.length - i);
        i += take;
        this.state = s.left === take ? { at: 'type' } : { at: 'body', left: s.left - take };
        continue;
      }
      const byte = chunk[i++] as number;
      if (s.at === 'type') {
        this.state = { at: 'length', value: 0, multiplier: 1, headerBytes: 1 };
        continue;
      }
      const value = s.value + (byte & 0x7f) * s.multiplier;
      const headerBytes = s.headerBytes + 1;
      if (headerBytes > 5) return Number.POSITIVE_INFINITY;
      if ((byte & 0x80) !== 0) {
        this.state = { at: 'length', value, multiplier: s.multiplier * 128, headerBytes };
        if (value + headerBytes > this.maxBytes) return value + headerBytes;
        continue;
      }
      if (value + headerBytes > this.maxBytes) return value + headerBytes;
      this.state = value === 0 ? { at: 'type' } : { at: 'body', left: value };
    }
    return undefined;
  }
}

/**
 * Wraps a connection (a TCP or TLS socket, or a WebSocket stream) so that what is read from it passes the
 * scanner. On an oversize packet `onOversize(bytes)` is called and the connection is destroyed.
 */
export function guardPacketSize(inner: Duplex, maxBytes: number, onOversize: (announcedBytes: number) => void): Duplex {
  const scanner = new PacketScanner(maxBytes);
  const outer: Duplex = new Duplex({
    read() {
      inner.resume();
    },
    write(chunk: Buffer, _encoding, callback) {
      inner.write(chunk, callback);
    },
    // aedes (mqtt-packet) writes a packet in pieces — header, length, topic, id, payload — under cork(). Without
    // writev each piece would be its own socket write, each waiting for the last one's callback (a turn of the
    // event loop), and its own TCP segment: a subscriber could wait a busy loop's turn for the rest of a packet.
    // Written together, a packet (and any others corked with it) leaves in one write.
    writev(chunks, callback) {
      const buffers = chunks.map((c) => c.chunk as Buffer);
      inner.write(buffers.length === 1 ? (buffers[0] as Buffer) : Buffer.concat(buffers), callback);
    },
    final(callback) {
      inner.end(callback);
    },
    destroy(error, callback) {
      inner.destroy();
      callback(error);
    },
  });
  inner.on('data', (chunk: Buffer) => {
    const over = scanner.feed(chunk);
    if (over !== undefined) {
      onOversize(over);
      inner.destroy();
      outer.destroy();
      return;
    }
    if (!outer.push(chunk)) inner.pause();
  });
  inner.once('end', () => outer.push(null));
  inner.once('error', (error) => outer.destroy(error));
  inner.once('close', () => outer.destroy());
  return outer;
}
