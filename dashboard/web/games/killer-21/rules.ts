/**
 * Killer-21's rules in short, for the "How to play" box of the game page (the full numbered rules, K21-n, are
 * docs/rules/killer-21.md).
 */
export const K21_RULES: readonly string[] = [
  'Players take turns. Red cards 0 to 7 add to the running total, which must not pass 21. Blue cards steer the game: Draw 1, Draw 2, Pass, Skip, Reverse, Life.',
  'Who cannot play says "I can\'t" (the ZAP button), busts and loses a life.',
  'The Killer: every player, its player too, must put a red 0 on their own pad within the window, or lose a life.',
  'The Life card costs every player a life, its player too. A player who sheds all their cards costs all the others a life.',
  'Everyone starts with the same lives (chips on the pad). The last player with lives wins; in Blitz the game ends when the first player runs out.',
];
