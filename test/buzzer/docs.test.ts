/** docs/mqtt.md documents every buzzer event; the example configuration is valid. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUZZER_EVENT_TYPES } from '../../controller/buzzer/index.ts';
import { loadConfig } from '../../controller/config/index.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('buzzer documentation', () => {
  it('lists every buzzer event in docs/mqtt.md with an example', () => {
    const doc = readFileSync(path.join(root, 'docs', 'mqtt.md'), 'utf8');
    for (const type of BUZZER_EVENT_TYPES) {
      expect(doc).toContain(`| \`${type}\` |`);
      expect(doc).toContain(`{ "type": "${type}"`);
    }
  });

  it('docs/config-examples/buzzer-quiz.yaml is a valid configuration', () => {
    const loaded = loadConfig({ file: path.join(root, 'docs', 'config-examples', 'buzzer-quiz.yaml'), env: {} });
    expect(loaded.ok ? [] : loaded.errors).toEqual([]);
  });
});
