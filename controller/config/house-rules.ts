/**
 * Notes for the house rules a valid configuration chooses: each game's `houseRules` names the `rules` that depart
 * from the printed game (Killer-21 with no Killer or two), so `config check` and the start banner say it.
 */
import { findGame } from '../rules/games.ts';
import type { ZaptableConfig } from './schema.ts';

/** One note per house rule of every game table, `tables.N.rules.<key>: …`. */
export function houseRuleNotes(config: ZaptableConfig): string[] {
  return config.tables.flatMap((table, t) => {
    const game = findGame(table.mode);
    const rules = (table as { readonly rules?: Readonly<Record<string, unknown>> }).rules ?? {};
    return (game?.houseRules?.(rules) ?? []).map((note) => `tables.${t}.rules.${note}`);
  });
}
