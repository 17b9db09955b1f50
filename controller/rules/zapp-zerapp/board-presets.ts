/**
 * The built-in boards: the inferred default of B.2.3 and the Alt-A shift of B.2.4. They are JSON files, so a
 * measured board (B.2.6) is written the same way and loaded with `parseBoardSpec`.
 */
import defaultJson from './boards/default.json' with { type: 'json' };
import altAJson from './boards/alt-a.json' with { type: 'json' };
import { parseBoardSpec, type BoardSpec } from './board-spec.ts';

function load(json: unknown, name: string): BoardSpec {
  const parsed = parseBoardSpec(json);
  // A broken built-in board is a programmer error, found at start-up by the tests.
  if (!parsed.ok) throw new Error(`built-in board ${name} is invalid: ${parsed.errors.join('; ')}`);
  return parsed.board;
}

/** The inferred default layout (B.2.3), provenance INFERRED_DEFAULT. */
export const DEFAULT_BOARD: BoardSpec = load(defaultJson, 'default');

/** Alt-A (B.2.4): each stretch 2 fields before its corner and 3 after. */
export const ALT_A_BOARD: BoardSpec = load(altAJson, 'alt-a');

/** Names accepted for `config.board` instead of a full BoardSpec. */
export type BoardPreset = 'default' | 'alt-a';

/** The built-in boards by name. */
export const BOARD_PRESETS: Readonly<Record<BoardPreset, BoardSpec>> = { default: DEFAULT_BOARD, 'alt-a': ALT_A_BOARD };
