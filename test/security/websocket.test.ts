/**
 * Item 10 of issue 10: `mqtt.embedded.websocketPort` opens MQTT over WebSocket on the embedded broker, with
 * the same logins, roles and packet limit as TCP, so browsers and MQTT.js web clients can subscribe. Checked
 * with a plain mqtt.js client over `ws://`, as a browser page would connect.
 */
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../controller/bench/mosquitto.ts';
import { BASE, VIEWER, startRig, type Rig } from './support/rig.ts';

let rig: Rig | undefined;

afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

describe('MQTT over WebSocket', () => {
  it('serves the public state to a viewer on ws:// and refuses a wrong password', async () => {
    const wsPort = await freeLoopbackPort();
    rig = await startRig({
      broker: 'embedded', tables: [{ id: 't1', mode: 'zip-zap', seats: ['ana', 'ben'] }], embeddedWebsocketPort: wsPort,
    });
    const url = `ws://127.0.0.1:${wsPort}`;
    const c = await mqtt.connectAsync(url, {
      username: VIEWER.username, password: VIEWER.password, protocolVersion: 4, reconnectPeriod: 0,
    });
    const state = new Promise<string>((resolve) => c.on('message', (_t, p) => {
      resolve(p.toString());
    }));
    expect((await c.subscribeAsync(`${BASE}/t1/state`, { qos: 1 }))[0]?.qos).toBe(1);
    expect(JSON.parse(await state)).toMatchObject({ mode: 'game', game: 'zip-zap' });
    // Roles hold on this listener too: a viewer may not read requests.
    await expect(c.subscribeAsync(`${BASE}/+/request/#`, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    await c.endAsync(true);
    await expect(mqtt.connectAsync(url, { username: VIEWER.username, password: 'wrong', protocolVersion: 4, reconnectPeriod: 0 }))
      .rejects.toThrow();
  });
});
