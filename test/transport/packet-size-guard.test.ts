/**
 * The packet size guard passes aedes's writes on in as few socket writes as they were corked in: mqtt-packet
 * writes a packet in pieces under cork(), and each piece as its own socket write cost a turn of the event loop
 * and a TCP segment each (issue 18, item 3: the embedded broker's tail latency).
 */
import { Duplex } from 'node:stream';
import mqttPacket from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { guardPacketSize } from '../../controller/transport/packet-size-guard.ts';

describe('guardPacketSize', () => {
  it('writes a corked packet to the connection in one write, byte for byte', async () => {
    const writes: Buffer[] = [];
    const inner = new Duplex({
      read() { /* nothing to read */ },
      write(chunk: Buffer, _encoding, callback) {
        writes.push(chunk);
        // As a socket: the callback comes later, not within write().
        setImmediate(callback);
      },
    });
    const outer = guardPacketSize(inner, 1024, () => undefined);
    const packet = { cmd: 'publish' as const, topic: 'zaptable/t1/state', payload: Buffer.from('{"x":1}'), qos: 1 as const, messageId: 7, retain: true, dup: false };
    mqttPacket.writeToStream(packet, outer);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(writes).toHaveLength(1);
    expect(Buffer.concat(writes)).toEqual(mqttPacket.generate(packet));
  });
});
