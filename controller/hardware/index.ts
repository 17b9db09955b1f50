/**
 * The hardware layer: one interface (`interface.ts`) and its implementations — serial stations
 * (`serial/`), the simulated table (`simulated/`), the johnny-five buzzer hub (`buzzer-hub/`) — plus the
 * timing core (`clock/`). Other layers import the hardware layer through this file.
 */
export * from './interface.ts';
export * from './clock/index.ts';
export * from './serial/index.ts';
export * from './simulated/index.ts';
