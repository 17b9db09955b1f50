/**
 * Item 12 of issue 10: `zaptable start` on the embedded broker creates a viewer login, prints it, and its
 * start-up hint uses that login (never the controller's account, which may publish state). Run as a user
 * would: the real command in a child process, then the printed hint's login used by a plain mqtt.js client.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../controller/bench/mosquitto.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

describe('zaptable start', () => {
  it('prints a viewer login and a hint that uses it; the login reads state and cannot publish it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-viewer-'));
    const port = await freeLoopbackPort();
    const config = path.join(dir, 'zaptable.yaml');
    writeFileSync(config, [
      'tables:', '  - id: t1', '    mode: zip-zap', '    seats: [{ id: ana, bot: false }, { id: ben, bot: false }]',
      'hardware: { kind: simulated, simulated: { bots: false } }',
      `mqtt: { embedded: { port: ${port} } }`, 'dashboard: { enabled: false }', `storage: { directory: ${JSON.stringify(dir)} }`, '',
    ].join('\n'));
    const child = spawn(process.execPath, [path.join(root, 'bin', 'zaptable.mjs'), 'start', '--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (c: Buffer) => {
      text += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      text += c.toString();
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`no start:\n${text}`));
        }, 30_000);
        child.stdout.on('data', () => {
          if (text.includes('Press Ctrl-C')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const hint = /mosquitto_sub .*-u (\S+) -P '([^']+)'/.exec(text);
      expect(hint, text).not.toBeNull();
      const [, username = '', password = ''] = hint ?? [];
      expect(username).not.toMatch(/controller/);
      expect(text).toMatch(new RegExp(`mqtt\\.viewer\\.password for this run: ${password}`));
      const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { username, password, protocolVersion: 4, reconnectPeriod: 0 });
      const state = new Promise<string>((resolve) => c.on('message', (_t, p) => {
        resolve(p.toString());
      }));
      await c.subscribeAsync('zaptable/+/state', { qos: 1 });
      expect(JSON.parse(await state)).toMatchObject({ mode: 'game', game: 'zip-zap' });
      // A viewer: anything it publishes is refused (aedes closes the connection).
      const closed = new Promise<void>((resolve) => c.once('close', () => {
        resolve();
      }));
      c.publish('zaptable/t1/state', '{}', { qos: 1 });
      await closed;
      await c.endAsync(true);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }, 60_000);
});
