/** The johnny-five buzzer hub (docs/buzzer-hub.md): a `TableHardware` over StandardFirmata or any IO plugin. */
export * from './buzzer-hub.ts';
export * from './hub-config.ts';
export * from './hub-errors.ts';
export { checkPinsAgainstBoard } from './pin-check.ts';
export * from './host-timestamp.ts';
export type { HostDelaySnapshot, HostDelayWarning } from './host-delay-monitor.ts';
export { HUB_BUTTON } from './hub-station.ts';
export { LAMP_TIMING } from './lamp-patterns.ts';
