// The BoardSpec loader (rules-spec B.2.5): the built-in boards pass, and a corrupted board reports every broken
// invariant at once, each with its JSON path.
import { describe, expect, it } from 'vitest';
import defaultJson from '../../../controller/rules/zapp-zerapp/boards/default.json' with { type: 'json' };
import {
  ALT_A_BOARD, DEFAULT_BOARD, isProtected, lapLength, parseBoardSpec, pathFrom, stepsToCity, type BoardSpec,
} from '../../../controller/rules/zapp-zerapp/index.ts';

const clone = (): Record<string, unknown> => JSON.parse(JSON.stringify(defaultJson)) as Record<string, unknown>;

describe('parseBoardSpec', () => {
  it('accepts the default and Alt-A boards without warnings', () => {
    for (const board of [DEFAULT_BOARD, ALT_A_BOARD]) {
      const parsed = parseBoardSpec(board);
      expect(parsed).toMatchObject({ ok: true, warnings: [] });
    }
    expect(DEFAULT_BOARD.provenance).toBe('INFERRED_DEFAULT');
  });

  it('reports every error at once, each with its path', () => {
    const bad = clone();
    const fields = bad.fields as Record<string, unknown>[];
    bad.trackLength = 25; // invariant 1: 24 fields listed
    fields[2] = { idx: 2, type: 'NEUTRAL', castles: ['RED'] }; // invariant 2
    fields[8] = { idx: 8, type: 'NEUTRAL', castles: ['GREEN', 'GREEN'] }; // invariant 2
    fields[3] = { idx: 4, type: 'COLOUR', colour: 'PINK' };
    const homes = bad.homes as Record<string, Record<string, unknown>>;
    (homes.GREEN as Record<string, unknown>).entryField = 0; // invariant 3: RED's entry
    (homes.BLUE as Record<string, unknown>).lastField = 23; // invariant 3: RED's last
    bad.provenance = 'GUESSED';
    const parsed = parseBoardSpec(bad);
    expect(parsed.ok).toBe(false);
    const errors = parsed.ok ? [] : parsed.errors;
    const paths = errors.map((e) => e.split(':')[0]);
    expect(paths).toEqual(expect.arrayContaining([
      '$.fields', '$.fields[2].castles', '$.fields[8].castles', '$.fields[3].idx', '$.fields[3].colour',
      '$.homes.GREEN.entryField', '$.homes.BLUE.lastField', '$.provenance',
    ]));
    expect(errors.find((e) => e.startsWith('$.fields:'))).toContain('invariant 1');
  });

  it('rejects trackLength ≤ 12 (invariant 4)', () => {
    const bad = clone();
    bad.trackLength = 12;
    bad.fields = (bad.fields as unknown[]).slice(0, 12);
    const parsed = parseBoardSpec(bad);
    const errors = parsed.ok ? [] : parsed.errors;
    expect(errors).toEqual(expect.arrayContaining([expect.stringMatching(/^\$\.trackLength: .*invariant 4/)]));
  });

  it('reports missing homes, out-of-range fields and a non-object', () => {
    const bad = clone();
    const homes = bad.homes as Record<string, unknown>;
    delete homes.YELLOW;
    (homes.RED as Record<string, unknown>).lastField = 24;
    const parsed = parseBoardSpec(bad);
    const errors = parsed.ok ? [] : parsed.errors;
    expect(errors.some((e) => e.startsWith('$.homes.YELLOW:'))).toBe(true);
    expect(errors.some((e) => e.startsWith('$.homes.RED.lastField:'))).toBe(true);
    expect(parseBoardSpec([])).toEqual({ ok: false, errors: ['$: a board must be a JSON object'] });
  });

  it('warns when a colour is split into several stretches (invariant 5)', () => {
    const odd = clone();
    const fields = odd.fields as Record<string, unknown>[];
    fields[16] = { idx: 16, type: 'COLOUR', colour: 'RED' };
    const parsed = parseBoardSpec(odd);
    expect(parsed.ok && parsed.warnings).toEqual(expect.arrayContaining([expect.stringContaining('GREEN fields form 2')]));
  });
});

describe('derived board functions (B.2.5)', () => {
  it('gives a 24-field lap and 25 steps from START on the default board (ZAPP-Q-2)', () => {
    expect(lapLength(DEFAULT_BOARD, 'RED')).toBe(24);
    expect(stepsToCity(DEFAULT_BOARD, 'GREEN', 'START')).toBe(25);
    expect(stepsToCity(DEFAULT_BOARD, 'GREEN', 23)).toBe(7);
    expect(stepsToCity(DEFAULT_BOARD, 'GREEN', 5)).toBe(1);
    // A foreign piece carried past its city needs another lap (ZAPP-68).
    expect(stepsToCity(DEFAULT_BOARD, 'RED', 1)).toBe(23);
  });

  it('cuts the path at lastField when the move enters the city (ZAPP-43)', () => {
    expect(pathFrom(DEFAULT_BOARD, 'GREEN', 23, 8)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(pathFrom(DEFAULT_BOARD, 'RED', 'START', 2)).toEqual([0, 1]);
    expect(pathFrom(DEFAULT_BOARD, 'RED', 22, 3)).toEqual([23]);
  });

  it('protects by own colour, and in PRO by castle (ZAPP-51, ZAPP-55, ZAPP-61)', () => {
    expect(isProtected(DEFAULT_BOARD, 'RED', 12, 'BASIC')).toBe(true);
    expect(isProtected(DEFAULT_BOARD, 'RED', 2, 'BASIC')).toBe(false);
    expect(isProtected(DEFAULT_BOARD, 'RED', 2, 'PRO')).toBe(true);
    expect(isProtected(DEFAULT_BOARD, 'YELLOW', 2, 'PRO')).toBe(false);
  });

  it('follows a board numbered anticlockwise', () => {
    const mirrored: BoardSpec = { ...DEFAULT_BOARD, clockwiseIsIncreasing: false,
      homes: { ...DEFAULT_BOARD.homes, RED: { ...DEFAULT_BOARD.homes.RED, entryField: 23, lastField: 0 } } };
    expect(parseBoardSpec(mirrored).ok).toBe(true);
    expect(pathFrom(mirrored, 'RED', 'START', 3)).toEqual([23, 22, 21]);
    expect(stepsToCity(mirrored, 'RED', 1)).toBe(2);
  });

  it('shifts the white fields by one on Alt-A (B.2.4)', () => {
    expect(ALT_A_BOARD.fields.filter((f) => f.type === 'NEUTRAL').map((f) => f.idx)).toEqual([3, 9, 15, 21]);
    expect(DEFAULT_BOARD.fields.filter((f) => f.type === 'NEUTRAL').map((f) => f.idx)).toEqual([2, 8, 14, 20]);
  });
});
