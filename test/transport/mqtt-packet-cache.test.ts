/**
 * mqtt-packet's cache of packet-length encodings pins a pool block per new length (mqttjs/mqtt-packet#163); the
 * controller fills it at start-up so that no later packet does (controller/transport/mqtt-packet-cache.ts). Each
 * case runs in a fresh process: the cache is per process and other tests fill it.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');

function retainedAfterNewLengths(mode: 'fill' | 'plain'): number {
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(import.meta.dirname, 'fixtures', 'packet-lengths.ts'), mode], {
    cwd: root, encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return (JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { retainedBytes: number }).retainedBytes;
}

describe('mqtt-packet\'s length cache', () => {
  it('pins a pool block for each new packet length unless it was filled first', () => {
    const MB = 1024 * 1024;
    // Without the fill: an 8 KB pool block for each of the 1,000 lengths (the check that the fix is needed).
    expect(retainedAfterNewLengths('plain')).toBeGreaterThan(5 * MB);
    // Filled at start-up: the new lengths add nothing.
    expect(retainedAfterNewLengths('fill')).toBeLessThan(0.1 * MB);
  }, 60_000);
});
