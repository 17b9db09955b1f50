/**
 * Buzzer (lockout) mode, the pure logic (docs/buzzer.md): state + action → new state + events, ranking by
 * device time with explicit ties, the public view, the lamps, and the replay behind export and disputes.
 */
export * from './types.ts';
export * from './setup.ts';
export * from './ranking.ts';
export * from './reducer.ts';
export * from './view.ts';
export * from './lamps.ts';
export * from './press-rows.ts';
export * from './parse-action.ts';
