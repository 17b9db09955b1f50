/**
 * The node flags a controller runs with (controller/app/node-flags.ts) are written in four places a user runs it
 * from: `npm start`, the systemd unit, the README and the Pi guide. They must be the same flags everywhere, or the
 * memory figures (docs/performance.md) describe a process nobody runs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTROLLER_NODE_FLAGS, missingNodeFlags, nodeCommand } from '../../controller/app/node-flags.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');
const flags = CONTROLLER_NODE_FLAGS.join(' ');

describe('the controller\'s node flags', () => {
  it('are those of npm start, the systemd unit, the README and the Pi guide', () => {
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(nodeCommand('start'));
    expect(read('hardware/pi/zaptable.service')).toMatch(new RegExp(`^ExecStart=/usr/bin/node ${flags} bin/zaptable\\.mjs start `, 'm'));
    expect(read('README.md')).toContain(nodeCommand('start'));
    expect(read('hardware/raspberry-pi.md').replace(/\s+/g, ' ')).toContain(`node ${flags} bin/zaptable.mjs start`);
  });

  it('are told apart from a process started without them', () => {
    expect(missingNodeFlags([...CONTROLLER_NODE_FLAGS])).toEqual([]);
    expect(missingNodeFlags(['--inspect'])).toEqual([...CONTROLLER_NODE_FLAGS]);
    expect(missingNodeFlags(['--optimize-for-size', '--no-opt'])).toEqual(['--single-threaded']);
  });
});
