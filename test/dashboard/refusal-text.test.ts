/**
 * Every refusal code of the engines has a sentence on the dashboard: the codes are read from the "Rejection
 * codes" tables of docs/rules-engine.md, each game's under its own heading, so a code added to the docs without
 * a sentence fails here. And a hidden refusal is never shown with the controller's text.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { K21_REFUSALS } from '../../dashboard/web/games/killer-21/refusals.ts';
import { ZAPP_REFUSALS } from '../../dashboard/web/games/zapp-zerapp/refusals.ts';
import { ZIP_REFUSALS } from '../../dashboard/web/games/zip-zap/refusals.ts';
import { refusalSentence, refusalText, TABLE_REFUSALS, type RefusalSentences } from '../../dashboard/web/refusal-text.ts';

const DOC = readFileSync(path.resolve(import.meta.dirname, '../../docs/rules-engine.md'), 'utf8');

/** The codes of the "Rejection codes" table under the `## <game>` heading. */
function documentedCodes(game: string): string[] {
  const section = DOC.split(/^## /m).find((s) => s.startsWith(game)) ?? '';
  const table = section.split(/^### /m).find((s) => s.startsWith('Rejection codes')) ?? '';
  return [...table.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1] as string);
}

const GAMES: readonly (readonly [string, RefusalSentences])[] = [['Zip-Zap', ZIP_REFUSALS], ['Zapp Zerapp', ZAPP_REFUSALS], ['Killer-21', K21_REFUSALS]];

describe('refusal sentences', () => {
  it('are checked for every game whose rejection codes docs/rules-engine.md lists', () => {
    const documented = DOC.split(/^## /m).filter((section) => /^### Rejection codes/m.test(section)).map((section) => section.split(' (')[0]);
    expect(documented.sort()).toEqual(GAMES.map(([game]) => game).sort());
  });

  for (const [game, own] of GAMES) {
    it(`has a sentence for every ${game} code in docs/rules-engine.md`, () => {
      const codes = documentedCodes(game);
      expect(codes.length).toBeGreaterThan(20);
      expect(codes.filter((code) => refusalSentence(code, own) === undefined)).toEqual([]);
    });
  }

  it('words a hidden refusal as hidden, never with the controller\'s text or a pointer to a log', () => {
    const controllers = 'play refused for a reason that depends on hidden information (the referee finds it in the event log)';
    expect(refusalText('HIDDEN_REASON', controllers, ZIP_REFUSALS)).toBe('the reason is hidden: it depends on the cards in hand');
    expect(refusalText('HIDDEN_REASON', controllers, ZAPP_REFUSALS)).toBe('the reason is hidden: it depends on a barrel not revealed yet');
    for (const sentences of [TABLE_REFUSALS, ...GAMES.map(([, own]) => own)]) {
      for (const sentence of Object.values(sentences)) expect(sentence).not.toMatch(/event log|HIDDEN_REASON|_/);
    }
  });

  it('adds the controller\'s detail where it carries one, and falls back to the message for a code it does not know', () => {
    expect(refusalText('DOES_NOT_FOLLOW', 'Y8 does not follow Y3', ZIP_REFUSALS)).toBe(ZIP_REFUSALS.DOES_NOT_FOLLOW);
    expect(refusalText('WRONG_COUNT', 'ana holds 3 unseen cards, 2 given', K21_REFUSALS))
      .toBe(`${K21_REFUSALS.WRONG_COUNT} (ana holds 3 unseen cards, 2 given)`);
    // The engine's figures in controller milliseconds are not for players: the sentence alone.
    expect(refusalText('LATE_PLAY', 'ana\'s play landed at 1733400000123 ms (−12/+12) …', ZIP_REFUSALS)).toBe(ZIP_REFUSALS.LATE_PLAY);
    const pads = 'put every barrel back on the mountain before the next roll: a barrel still lies on ana\'s pad (seat-1)';
    expect(refusalText('PADS_NOT_CLEAR', pads, ZAPP_REFUSALS)).toBe(pads);
    expect(refusalText('SOMETHING_NEW', 'a new refusal')).toBe('a new refusal');
    expect(refusalText('SOMETHING_NEW')).toBe('something new');
  });
});
