/**
 * A Killer-21 table in the configuration: its seat limits and rules come from its game definition (the engine
 * checks the rules), `chips` and `pileStation` are its table keys, and simulated hardware gives it a pile
 * station.
 */
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../controller/config/index.ts';

const seats = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `p${i + 1}` }));

function problems(input: unknown): string[] {
  const result = validateConfig(input);
  return result.ok ? [] : result.errors.map((e) => `${e.code} ${e.path}: ${e.message}`);
}

describe('killer-21 tables', () => {
  it('accepts a table with rules, chips and a pile station, and fills the simulated pile and the chip defaults', () => {
    const result = validateConfig({
      tables: [{ id: 'k', mode: 'killer-21', seats: seats(7), rules: { lives: 3, killerWindowMs: 2500 }, chips: { countBy: 'weight' } }],
    });
    if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('; '));
    const table = result.config.tables[0];
    expect(table?.pileStation).toBe('pile-1');
    expect(table?.chips).toEqual({ countBy: 'weight', chipGrams: 8.5, cardGrams: 1.8 });
  });

  it('names a deck with no Killer or two as a house rule in the notes, and the printed deck not at all', () => {
    const notes = (killers?: number): string[] => {
      const deck = killers === undefined ? {} : { deck: { KILLER: killers } };
      const result = validateConfig({ tables: [{ id: 'k', mode: 'killer-21', seats: seats(3), rules: deck }] });
      if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('; '));
      return result.notes.filter((n) => n.includes('house rule'));
    };
    expect(notes()).toEqual([]);
    expect(notes(1)).toEqual([]);
    const houseRule = /^tables\.0\.rules\.deck\.KILLER: 0 — a house rule: the printed deck has exactly one Killer/;
    expect(notes(0)).toEqual([expect.stringMatching(houseRule)]);
    expect(notes(2)).toEqual([expect.stringMatching(/^tables\.0\.rules\.deck\.KILLER: 2 — a house rule/)]);
  });

  it('refuses too many seats, engine options it does not have (with a suggestion) and bad values', () => {
    expect(problems({ tables: [{ id: 'k', mode: 'killer-21', seats: seats(8) }] }))
      .toEqual(['CONFIG_INVALID tables.0.seats: killer-21 needs 2–7 seats, got 8']);
    const bad = problems({ tables: [{ id: 'k', mode: 'killer-21', seats: seats(3), rules: { live: 3, killerWindowMs: -1 } }] });
    expect(bad).toEqual(expect.arrayContaining([
      expect.stringMatching(/^CONFIG_UNKNOWN_KEY tables\.0\.rules\.live: unknown killer-21 rules option; did you mean "lives"\?/),
      expect.stringMatching(/^CONFIG_INVALID tables\.0\.rules\.killerWindowMs: /),
    ]));
    expect(problems({ tables: [{ id: 'k', mode: 'killer-21', seats: seats(3), rules: { players: ['a'] } }] }))
      .toEqual(['CONFIG_CONFLICT tables.0.rules.players: comes from `seats`; remove it here']);
  });

  it('refuses chips on a table of another game, and a bad chip setting', () => {
    expect(problems({ tables: [{ id: 'z', mode: 'zip-zap', seats: seats(3), chips: { countBy: 'tags' } }] }))
      .toEqual(['CONFIG_CONFLICT tables.0.chips: only for mode killer-21 (this table is zip-zap)']);
    expect(problems({ tables: [{ id: 'k', mode: 'killer-21', seats: seats(3), chips: { countBy: 'scales' } }] }))
      .toEqual([expect.stringMatching(/^CONFIG_INVALID tables\.0\.chips\.countBy: /)]);
  });
});
