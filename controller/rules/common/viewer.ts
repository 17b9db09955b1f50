/**
 * Who is looking at a game. `view(state, viewer)` hides what that viewer may not see (design principle 2).
 * - `public`: everything published on MQTT or shown on the dashboard. No hand, no unrevealed barrel.
 * - `player`: the public view plus that player's own secrets (their hand, their barrel).
 * - `omniscient`: everything; for tests, scenarios and the referee's sealed audit log only. Never published.
 */
export type Viewer =
  | { readonly role: 'public' }
  | { readonly role: 'player'; readonly player: string }
  | { readonly role: 'omniscient' };

export const PUBLIC: Viewer = { role: 'public' };
export const OMNISCIENT: Viewer = { role: 'omniscient' };
