/**
 * docs/rules-engine.md documents every action type, rejection code, event type and option of the Killer-21 engine
 * in its Killer-21 section, as test/rules/docs.test.ts requires for the other two engines (phase B may fold this
 * into that test when the engine is registered).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_TYPES, DEFAULT_CONFIG, EVENT_TYPES, K21_REJECTIONS } from '../../../controller/rules/killer-21/index.ts';

const doc = readFileSync(path.resolve(import.meta.dirname, '..', '..', '..', 'docs', 'rules-engine.md'), 'utf8');
const start = doc.indexOf('\n## Killer-21');
const end = doc.indexOf('\n## ', start + 1);
const section = start < 0 ? '' : doc.slice(start, end < 0 ? undefined : end);

describe('docs/rules-engine.md, Killer-21 section', () => {
  it('exists', () => {
    expect(section.length).toBeGreaterThan(1000);
  });

  it('documents every action type, rejection code, event type and option in its tables', () => {
    for (const type of ACTION_TYPES) expect(section).toContain(`| \`${type}\` |`);
    for (const code of Object.keys(K21_REJECTIONS)) expect(section).toContain(`| \`${code}\` |`);
    for (const type of EVENT_TYPES) expect(section).toContain(`| \`${type}\` |`);
    for (const key of ['players', ...Object.keys(DEFAULT_CONFIG)]) expect(section).toContain(`| \`${key}\` |`);
  });

  it('uses the catalogue\'s wording for each code', () => {
    for (const [code, meaning] of Object.entries(K21_REJECTIONS)) expect(section).toContain(`| \`${code}\` | ${meaning} |`);
  });
});
