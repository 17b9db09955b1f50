/**
 * The table's lamp patterns on a johnny-five `Led`. Every pattern starts from a stopped Led: `on()` and
 * `off()` alone would leave a running blink interval or pulse animation toggling the pin afterwards.
 */
import type { Led } from 'johnny-five';
import type { LampPattern } from '../interface.ts';

/** Firmata's pin mode number for PWM output. */
const PWM_MODE = 3;

/** Half periods (ms) of the blinking patterns: `Led.blink(ms)` toggles every `ms`. */
export const LAMP_TIMING = {
  blinkSlowMs: 500,
  blinkFastMs: 100,
  /** A full fade up and down of `pulse` on a PWM pin. */
  pulseMs: 1000,
  /** `pulse` on a pin without PWM: a blink between slow and fast, still distinct from both. */
  pulseFallbackMs: 250,
  /** A nervous flicker that reads as "something is wrong". */
  errorMs: 50,
} as const;

/** Whether `pulse` can fade this Led (PWM pin) rather than fall back to blinking. */
export function canFade(led: Led): boolean {
  // The typings declare `mode` as their PinMode enum; johnny-five holds the IO's mode number.
  const mode: number = led.mode;
  return mode === PWM_MODE;
}

export function applyLampPattern(led: Led, pattern: LampPattern): void {
  led.stop();
  switch (pattern) {
    case 'off':
      led.off();
      return;
    case 'on':
      led.on();
      return;
    case 'blink-slow':
      led.blink(LAMP_TIMING.blinkSlowMs);
      return;
    case 'blink-fast':
      led.blink(LAMP_TIMING.blinkFastMs);
      return;
    case 'pulse':
      // johnny-five's pulse animates brightness; on a pin without PWM its animation throws from a timer.
      if (canFade(led)) led.pulse(LAMP_TIMING.pulseMs);
      else led.blink(LAMP_TIMING.pulseFallbackMs);
      return;
    case 'error':
      led.blink(LAMP_TIMING.errorMs);
      return;
  }
}
