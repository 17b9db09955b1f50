/**
 * docs/rules-engine.md documents every action type and every rejection code of both engines: a code added
 * without its documentation fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_TYPES as ZAPP_ACTIONS, ZAPP_REJECTIONS } from '../../controller/rules/zapp-zerapp/index.ts';
import { ACTION_TYPES as ZIP_ACTIONS, ZIP_REJECTIONS } from '../../controller/rules/zip-zap/index.ts';

const doc = readFileSync(path.resolve(import.meta.dirname, '..', '..', 'docs', 'rules-engine.md'), 'utf8');
const section = (title: string): string => {
  const start = doc.indexOf(`\n## ${title}`);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
};

describe('docs/rules-engine.md', () => {
  it('documents every Zip-Zap action type and rejection code in the Zip-Zap section', () => {
    const zip = section('Zip-Zap');
    for (const type of ZIP_ACTIONS) expect(zip).toContain(`| \`${type}\` |`);
    for (const code of Object.keys(ZIP_REJECTIONS)) expect(zip).toContain(`| \`${code}\` |`);
  });

  it('documents every Zapp Zerapp action type and rejection code in the Zapp Zerapp section', () => {
    const zapp = section('Zapp Zerapp');
    for (const type of ZAPP_ACTIONS) expect(zapp).toContain(`| \`${type}\` |`);
    for (const code of Object.keys(ZAPP_REJECTIONS)) expect(zapp).toContain(`| \`${code}\` |`);
  });

  it('describes the action log and scenario formats', () => {
    expect(section('Action log format')).toContain('"actions"');
    expect(section('Scenario format')).toContain('publicLacks');
  });
});
