/** The firmware's lamp (firmware/src/lamp.cpp): on, off, or blinking for a number of cycles, then off. */

/** What the lamp is doing, as last commanded. */
export type LampMode =
  | { readonly mode: 'off' }
  | { readonly mode: 'on' }
  | { readonly mode: 'blink'; readonly onMs: number; readonly offMs: number; readonly count: number; readonly sinceMs: number };

/** The lamp's level at `nowMs`: blinking starts lit; a finite blink ends dark. */
export function lampLit(lamp: LampMode, nowMs: number): boolean {
  if (lamp.mode !== 'blink') return lamp.mode === 'on';
  const period = lamp.onMs + lamp.offMs;
  const elapsed = Math.max(0, nowMs - lamp.sinceMs);
  const cycles = Math.floor(elapsed / period);
  if (lamp.count !== 0 && cycles >= lamp.count) return false;
  return elapsed - cycles * period < lamp.onMs;
}
