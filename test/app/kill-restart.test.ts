/**
 * The whole controller (`zaptable start` on the simulated table with fast bots) is killed with SIGKILL at
 * random moments and restarted, again and again. After every kill the event log is read independently; the
 * restarted controller must continue exactly that game (same id, same number of actions in force), so
 * nothing that was applied is ever lost or replayed twice (design principle 8).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { freeLoopbackPort as freePort } from '../../controller/bench/mosquitto.ts';
import { EventLog, recoverTables } from '../../controller/persistence/index.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

type Child = ChildProcessByStdio<null, Readable, Readable>;

function startController(config: string): { child: Child; output: () => string; running: Promise<void> } {
  const child = spawn(process.execPath, [path.join(root, 'bin', 'zaptable.mjs'), 'start', '--config', config], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const running = new Promise<void>((resolve, reject) => {
    // A hung start, not a slow one: a start took over 20 s with the machine busy (load average 15).
    const timer = setTimeout(() => {
      reject(new Error(`controller did not start:\n${text}`));
    }, 90_000);
    child.stdout.on('data', () => {
      if (text.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`controller exited with ${String(code)}:\n${text}`));
    });
  });
  return { child, output: () => text, running };
}

async function kill(child: Child): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => {
    resolve();
  }));
  child.kill('SIGKILL');
  await exited;
}

/** What the log says, read by the test itself: the unfinished game and its actions in force. */
function unfinishedGame(database: string): { gameId: number; actions: number } | undefined {
  const opened = EventLog.open(database, { readonly: true });
  if (!opened.ok) throw new Error(opened.message);
  try {
    const [game] = recoverTables(opened.log);
    if (!game) return undefined;
    if (!game.ok) throw new Error(`${game.code}: ${game.message}`);
    return { gameId: game.gameId, actions: game.actionCount };
  } finally {
    opened.log.close();
  }
}

describe('zaptable start killed with SIGKILL', () => {
  it('restarts into the exact same game, every time', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-kill-'));
    const config = path.join(dir, 'zaptable.yaml');
    writeFileSync(config, [
      'tables:',
      '  - id: table-1',
      '    mode: zapp-zerapp',
      '    seats: [{ id: red }, { id: green }, { id: blue }]',
      'hardware:',
      '  kind: simulated',
      '  simulated: { speed: 10 }',
      'mqtt:',
      `  embedded: { port: ${await freePort()} }`,
      'dashboard: { enabled: false }',
      `storage: { directory: ${JSON.stringify(dir)} }`,
      '',
    ].join('\n'));
    const database = path.join(dir, 'zaptable.db');
    let seen = 0;
    let continued = 0;
    let rng = 12345;
    for (let round = 0; round < 7; round++) {
      const before = round === 0 ? undefined : unfinishedGame(database);
      const controller = startController(config);
      await controller.running;
      if (before) {
        expect(controller.output()).toContain(`table table-1: continuing game ${before.gameId} after ${before.actions} actions`);
        continued++;
      }
      // Let the bots play for a random while, then pull the plug.
      rng = (rng * 1103515245 + 12345) % 2 ** 31;
      await new Promise((resolve) => setTimeout(resolve, 1500 + (rng % 2500)));
      await kill(controller.child);
      const after = unfinishedGame(database);
      if (after && before && after.gameId === before.gameId) expect(after.actions).toBeGreaterThanOrEqual(before.actions);
      seen = Math.max(seen, after?.actions ?? 0);
    }
    expect(continued).toBeGreaterThanOrEqual(5);
    expect(seen).toBeGreaterThan(5);
    // Seven controller starts and 1.5–4 s of play each: 69 s seen on a moderately busy machine.
  }, 300_000);
});
