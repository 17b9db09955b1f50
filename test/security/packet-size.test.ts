/**
 * Item 4 of issue 10: packets larger than the limit (256 KiB) are refused by the broker before they are
 * buffered. A viewer (embedded aedes) and a referee (Mosquitto, which forwards requests to the controller)
 * stream 10 MB and 200 MB PUBLISH packets from a raw socket; the broker closes the connection and the memory
 * of the process hosting the broker (the controller itself for aedes, Mosquitto's own process otherwise) grows
 * by less than 20 MB. The payload is one 64 KiB buffer written again and again, never allocated whole.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BASE, REFEREE, Referee, VIEWER, startRig, type Rig, type BrokerKind } from './support/rig.ts';

let rig: Rig | undefined;

afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

const MB = 1024 * 1024;

/** VmRSS of a process in bytes (Linux), or this process's RSS. */
function rssOf(pid: number | undefined): number {
  if (pid === undefined) return process.memoryUsage().rss;
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

/** MQTT's variable-length "remaining length" (1–4 bytes, 7 bits each). */
function remainingLength(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    out.push(byte);
  } while (rest > 0);
  return out;
}

/** A length-prefixed MQTT string. */
function mqttString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes]);
}

/** An MQTT 3.1.1 CONNECT with username and password, clean session, keepalive 30 s. */
function connectPacket(clientId: string, username: string, password: string): Buffer {
  const variable = Buffer.concat([mqttString('MQTT'), Buffer.from([4, 0x80 | 0x40 | 0x02, 0, 30])]);
  const payload = Buffer.concat([mqttString(clientId), mqttString(username), mqttString(password)]);
  return Buffer.concat([Buffer.from([0x10, ...remainingLength(variable.length + payload.length)]), variable, payload]);
}

/** The fixed header of a QoS 0 PUBLISH on `topic` whose payload is `payloadBytes` long. */
function publishHeader(topic: string, payloadBytes: number): Buffer {
  const name = mqttString(topic);
  return Buffer.concat([Buffer.from([0x30, ...remainingLength(name.length + payloadBytes)]), name]);
}

/**
 * Logs in on a raw socket, then streams a PUBLISH of `payloadBytes` until the broker closes the connection or
 * all was sent. Samples the broker's RSS meanwhile; resolves with the bytes written and the peak RSS growth.
 */
async function streamOversize(url: string, account: { username: string; password: string }, clientId: string, topic: string,
  payloadBytes: number, pid: number | undefined): Promise<{ written: number; closedEarly: boolean; peakGrowth: number }> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  socket.write(connectPacket(clientId, account.username, account.password));
  await new Promise<void>((resolve) => socket.once('data', () => {
    resolve();
  }));
  const baseline = rssOf(pid);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 20);
  const connection = { closed: false };
  socket.once('close', () => {
    connection.closed = true;
  });
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let written = 0;
  socket.write(publishHeader(topic, payloadBytes));
  while (written < payloadBytes && !connection.closed) {
    const ok = socket.write(chunk);
    written += chunk.length;
    if (!ok) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.once('drain', done);
        socket.once('close', done);
      });
    }
  }
  // Give the broker a moment to take in what is in flight, then sample once more.
  await new Promise((resolve) => setTimeout(resolve, 300));
  peak = Math.max(peak, rssOf(pid));
  clearInterval(sampler);
  socket.destroy();
  return { written, closedEarly: connection.closed, peakGrowth: peak - baseline };
}

describe.each<BrokerKind>(['embedded', 'mosquitto'])('oversize packets on %s', (broker) => {
  it.each([10 * MB, 200 * MB])('a %d-byte publish is refused with less than 20 MB memory growth; the controller keeps answering', async (size) => {
    rig = await startRig({ broker, tables: [{ id: 't1', mode: 'zip-zap', seats: ['ana', 'ben'] }] });
    const pid = rig.external?.pid;
    // On aedes a viewer publishing anything at all; on Mosquitto a referee on its own request topic, which the
    // broker would otherwise forward to the controller.
    const account = broker === 'embedded' ? VIEWER : REFEREE;
    const clientId = `big-${size}`;
    const topic = broker === 'embedded' ? `${BASE}/t1/state` : `${BASE}/t1/request/${clientId}/next-round`;
    const controllerBefore = process.memoryUsage().rss;
    const result = await streamOversize(rig.brokerUrl, account, clientId, topic, size, pid);
    expect(result.closedEarly).toBe(true);
    expect(result.written).toBeLessThan(size);
    expect(result.peakGrowth).toBeLessThan(20 * MB);
    const referee = await Referee.connect(rig.brokerUrl);
    expect((await referee.request('t1', 'next-round')).error?.code).toBe('ROUND_NOT_OVER');
    await referee.close();
    // The controller (this process) did not take the packet in either.
    expect(process.memoryUsage().rss - controllerBefore).toBeLessThan(20 * MB);
    console.log(`${broker}: ${size / MB} MB publish: ${(result.written / MB).toFixed(1)} MB written before the close, `
      + `broker RSS growth ${(result.peakGrowth / MB).toFixed(1)} MB`);
  });
});
