/** Small shared types of the browser code. */
export type { BridgeTable, PublicEventJson, StationHealth } from './types.ts';

/** A retained availability as the store keeps it. */
export type StateStatus = 'online' | 'offline' | 'unknown';
