/**
 * The table's lamp patterns as station commands (`lamp on|off|blink <on_ms> <off_ms> <count>`). The
 * timings match the johnny-five hub's (buzzer-hub/lamp-patterns.ts), so a pattern looks the same on a
 * seat's ZAP button and on an event buzzer. A station lamp is switched, not dimmed, so `pulse` is a blink
 * between slow and fast, as on the hub's pins without PWM. Every blink runs until the next lamp command
 * (count 0).
 */
import type { LampPattern } from '../interface.ts';
import type { CommandBody } from './command-queue.ts';

export function lampCommand(pattern: LampPattern): CommandBody {
  switch (pattern) {
    case 'off': return { verb: 'lamp-off' };
    case 'on': return { verb: 'lamp-on' };
    case 'blink-slow': return { verb: 'lamp-blink', onMs: 500, offMs: 500, count: 0 };
    case 'blink-fast': return { verb: 'lamp-blink', onMs: 100, offMs: 100, count: 0 };
    case 'pulse': return { verb: 'lamp-blink', onMs: 250, offMs: 250, count: 0 };
    case 'error': return { verb: 'lamp-blink', onMs: 50, offMs: 50, count: 0 };
  }
}
