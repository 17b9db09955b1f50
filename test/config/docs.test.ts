/**
 * docs/configuration.md documents every key of the schema (its reference section is the generated one, to
 * the character) and every error code: a key or code added without documentation fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configCommand } from '../../controller/cli/commands/config-check.ts';
import { memoryOutput } from '../../controller/cli/output.ts';
import { CONFIG_ERRORS, referenceMarkdown, referenceRows } from '../../controller/config/index.ts';
import { root } from './helpers.ts';

const doc = readFileSync(path.join(root, 'docs', 'configuration.md'), 'utf8');
const between = (name: string): string => {
  const start = doc.indexOf(`<!-- ${name}:start -->\n`);
  const end = doc.indexOf(`\n<!-- ${name}:end -->`);
  expect(start).toBeGreaterThanOrEqual(0);
  return doc.slice(start + `<!-- ${name}:start -->\n`.length, end);
};

describe('docs/configuration.md', () => {
  it('lists every schema path with a type, a default and a meaning', () => {
    const rows = referenceRows();
    expect(rows.length).toBeGreaterThan(60);
    for (const row of rows) {
      expect(row.description, `${row.path} has no description`).not.toBe('');
      expect(doc).toContain(`| \`${row.path}\` |`);
    }
  });

  it('embeds exactly the reference generated from the schema (regenerate: npx zaptable config reference)', () => {
    expect(between('reference')).toBe(referenceMarkdown());
    const io = memoryOutput();
    expect(configCommand(['reference'], io)).toBe(0);
    expect(io.lines.join('\n')).toBe(referenceMarkdown());
  });

  it('documents every error code', () => {
    const codes = between('codes');
    for (const code of Object.keys(CONFIG_ERRORS)) expect(codes).toContain(`| \`${code}\` |`);
  });

  it('documents the environment variables and precedence', () => {
    for (const text of ['ZAPTABLE_MQTT_PASSWORD', 'ZAPTABLE_DASHBOARD_TOKEN', 'ZAPTABLE__MQTT__EMBEDDED__PORT=1884', 'environment over file over defaults']) {
      expect(doc).toContain(text);
    }
  });
});
