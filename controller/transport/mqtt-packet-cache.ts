/**
 * mqtt-packet (the MQTT encoder of both mqtt.js and aedes) keeps a cache of the variable-byte encodings of every
 * packet length under 16,384 it has written, filled as lengths first appear. Each entry is `Buffer.allocUnsafe(4)`:
 * a slice of Node's shared 8 KB buffer pool, and a slice keeps its whole pool block alive. In a running controller
 * new lengths appear now and then, each time in a new block, so the cache pins ~8 KB per length for good: the
 * demo's resident memory rose ~5 MB an hour this way (two heap snapshots 9 minutes apart: 96 new pool blocks, each
 * held by one `varByteIntCache` entry). Upstream: mqttjs/mqtt-packet#163 (open), fix proposed in #164.
 *
 * Until that lands, the cache is filled once at start-up, every length in one go: the entries then share a few
 * blocks (~0.6 MB in all), and no later packet adds one. It takes ~70 ms on this machine, once per process.
 */
import mqttPacket from 'mqtt-packet';

/** The cache's bound in mqtt-packet 9 (`writeVarByteInt`: lengths below it are cached). */
const CACHED_BELOW = 16_384;
/** A PUBLISH with a one-byte topic and no packet id is 3 bytes before its payload. */
const PUBLISH_OVERHEAD = 3;

let filled = false;

/** Fills mqtt-packet's length cache (idempotent). Call before the first MQTT packet of the process is written. */
export function fillPacketLengthCache(): void {
  if (filled) return;
  filled = true;
  const sink = { write: (): boolean => true } as unknown as Parameters<typeof mqttPacket.writeToStream>[1];
  const payload = Buffer.alloc(CACHED_BELOW);
  // Its own number cache (65,536 two-byte Buffers, 6 MB of heap) stays off: the clients turn it off (`writeCache:
  // false`), and writing packets here must not turn it on first.
  const numbers = mqttPacket.writeToStream.cacheNumbers;
  mqttPacket.writeToStream.cacheNumbers = false;
  try {
    for (let length = PUBLISH_OVERHEAD; length < CACHED_BELOW; length++) {
      mqttPacket.writeToStream({
        cmd: 'publish', topic: 'a', payload: payload.subarray(0, length - PUBLISH_OVERHEAD), qos: 0, retain: false, dup: false,
      }, sink);
    }
  } finally {
    mqttPacket.writeToStream.cacheNumbers = numbers;
  }
}
