/**
 * `zaptable dashboard` (controller/cli/commands/dashboard.ts): loads the configuration, serves the dashboard
 * on the configured broker, stops on request; refuses to run with a token generated for this run only.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardCommand } from '../../controller/cli/commands/dashboard.ts';
import { memoryOutput } from '../../controller/cli/output.ts';
import type { EmbeddedBroker } from '../../controller/transport/embedded-broker.ts';
import { freePort } from '../transport/support/brokers.ts';
import { BASE, TOKEN, USERS, startBroker } from './support/harness.ts';

let broker: EmbeddedBroker;
let dir: string;
let files = 0;

beforeAll(async () => {
  broker = await startBroker();
  dir = await mkdtemp(path.join(tmpdir(), 'zaptable-dashboard-'));
});

afterAll(async () => {
  await broker.close();
  await rm(dir, { recursive: true, force: true });
});

async function config(dashboard: string): Promise<string> {
  const file = path.join(dir, `config-${++files}.yaml`);
  await writeFile(file, [
    'mqtt:', `  baseTopic: ${BASE}`, '  embedded:', `    port: ${broker.port}`,
    'dashboard:', '  host: 127.0.0.1', `  port: ${await freePort()}`, dashboard,
    'log:', '  level: silent', '',
  ].join('\n'));
  return file;
}

describe('zaptable dashboard', () => {
  it('serves the dashboard on the configured broker until stopped', async () => {
    const file = await config(`  token: ${TOKEN}\n  mqtt:\n    username: ${USERS.dashboard.username}\n    password: ${USERS.dashboard.password}`);
    const io = memoryOutput();
    let release: (signal: string) => void = () => undefined;
    const stopped = new Promise<string>((resolve) => {
      release = resolve;
    });
    const running = dashboardCommand(['--config', file], io, () => stopped);
    const url = await (async () => {
      for (;;) {
        const line = io.lines.find((l) => l.startsWith('dashboard: http'));
        if (line !== undefined) return /http:\/\/[^ ]+/.exec(line)?.[0] ?? '';
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const info = await fetch(`${url}/api/info`).then(async (r) => r.json() as Promise<{ baseTopic: string; connected: boolean }>);
    expect(info).toMatchObject({ baseTopic: BASE, connected: true });
    release('test');
    expect(await running).toBe(0);
    expect(io.lines.at(-1)).toContain('stopping');
  });

  it('refuses a token generated for this run (it would match no controller)', async () => {
    const file = await config(`  mqtt:\n    username: ${USERS.dashboard.username}\n    password: ${USERS.dashboard.password}`);
    const io = memoryOutput();
    expect(await dashboardCommand(['--config', file], io, () => Promise.resolve('never'))).toBe(1);
    expect(io.errors.join('\n')).toContain('ZAPTABLE_DASHBOARD_TOKEN');
  });
});
