/**
 * Zip-Zap's rules in short, for the "How to play" box of the game page (the full numbered rules, ZIP-n, are the
 * project's rules specification; the engine's reading of them is docs/rules-engine.md).
 */
export const ZIP_RULES: readonly string[] = [
  'There are no turns: whoever holds the next number in a matching suit plays it on the pile (a red 4 on a red 3; a wild card matches any suit). Only the first card down counts.',
  'Nothing follows a 10 or a ZAP: the player who put it down plays any card to restart the race.',
  'When nobody can follow, the player of the top card restarts with any card.',
  'Your ZAP goes only on your own number card while it is still on top, once a round.',
  'The first to empty their hand wins the round. The others score penalty points for the cards left: 1 a number card, 3 a wild card, 5 the ZAP. The lowest total after the last round wins.',
  'Cards down too close together for the sensors to order go to the referee, who rules which landed first.',
];
