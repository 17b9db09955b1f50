/** What every page is: an element that the router mounts, updated when the store changes. */
import type { LiveStore } from './live-client.ts';

export interface DashboardInfo {
  readonly baseTopic: string;
  readonly simulated: boolean;
}

export interface PageContext {
  readonly store: LiveStore;
  readonly info: DashboardInfo;
  /** The table of a table page ('' on a page of no table). */
  readonly table: string;
  /** The route's parts after its own path (`#/table/t1/station/seat-1` → `['seat-1']`; routes.ts). */
  readonly args?: readonly string[];
}

export interface Page {
  readonly element: HTMLElement;
  /** Re-renders from the store (called at most once per animation frame). */
  update(): void;
  /** Called when the router leaves the page. */
  destroy?(): void;
}
