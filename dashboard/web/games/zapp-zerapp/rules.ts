/**
 * Zapp Zerapp's rules in short, for the "How to play" box of the game page (the full numbered rules, ZAPP-n, are
 * the project's rules specification; the engine's reading of them is docs/rules-engine.md).
 */
export const ZAPP_RULES: readonly string[] = [
  'Each round one player rolls both dice: their sum is the magic number for everyone.',
  'Everyone at once takes barrels from the mountain (at most two in hand, no peeking underneath, no snatching) and stands exactly one on their pad. A placed barrel is final.',
  'When every barrel is placed they are turned over: a barrel at or below the magic number succeeds.',
  'Successful players move in order, highest barrel first: one piece forward by exactly their barrel number, then the barrel goes back on the mountain.',
  'A piece overtaken or caught by another colour goes back to start, unless it stands on a field of its own colour. Your own pieces are never sent back.',
  'The first player with all three pieces in their city wins.',
];
