/**
 * Before a controller on a shared (external) broker starts its tables, it reads the venue once
 * (`probeVenue`, transport/venue.ts) and refuses every configured table whose id another online controller
 * runs: that table is not started at all (no hardware, no log writes, no topics), the refusal is said on the
 * terminal with the stable code `TABLE_ID_TAKEN` and announced on `bridge/<id>/tables` (`refused`), where the
 * running controller sees it and says so too. With every table refused the start fails.
 */
import { randomBytes } from 'node:crypto';
import type { ZaptableConfig } from '../config/index.ts';
import { Topics, ownClientId, probeVenue, type MqttTlsOptions, type RefusedTable, type VenueNotice } from '../transport/index.ts';

export interface VenueClaim {
  /** The configuration with only the tables this controller may run. */
  readonly config: ZaptableConfig;
  readonly refused: readonly RefusedTable[];
}

/** The sentence for a refused table (terminal and docs). */
export function refusalText(controller: string, r: RefusedTable): string {
  return `${r.code}: table ${r.id} is not started: controller ${r.owner} runs a table with that id at this venue `
    + `(give one of them another tables[].id; this controller is ${controller})`;
}

/** Reads the venue (over `tls`, the external broker's) and keeps the tables nobody else runs; throws when none is left. */
export async function claimTables(
  config: ZaptableConfig, brokerUrl: string, tls: MqttTlsOptions | undefined, say: (line: string) => void,
): Promise<VenueClaim> {
  const controller = config.controller.id;
  const username = config.mqtt.controller.username;
  const view = await probeVenue({
    url: brokerUrl, username, password: config.mqtt.controller.password ?? '',
    ...(tls === undefined ? {} : { tls }),
    topics: new Topics(config.mqtt.baseTopic), controller,
    clientId: ownClientId(`${username}-${controller}-probe`, randomBytes(8).toString('hex')),
    onWaiting: (ms) => {
      say(`waiting for the venue broker at ${brokerUrl.replace(/\/\/[^@/]*@/, '//')} (${Math.round(ms / 1000)} s): the tables start once it answers`);
    },
  });
  const refused = view.taken(config.tables.map((t) => t.id));
  for (const r of refused) say(refusalText(controller, r));
  const tables = config.tables.filter((t) => !refused.some((r) => r.id === t.id));
  if (tables.length === 0) {
    throw new Error(`TABLE_ID_TAKEN: every configured table runs under another controller at this venue (${
      refused.map((r) => `${r.id} on ${r.owner}`).join(', ')}); nothing to start`);
  }
  return { config: { ...config, tables }, refused };
}

/** What the running controller says when another controller announced one of its tables (terminal). */
export function venueNoticeText(controller: string, n: VenueNotice): string {
  return n.code === 'TABLE_ID_TAKEN'
    ? `${n.code}: controller ${n.other} tried to start table ${n.table}, which runs here (${controller}); it was refused there`
    : `${n.code}: controller ${n.other} runs table ${n.table} too (both started at once): stop one of them and give it `
      + 'another tables[].id, or dashboards and referees see two tables under one id';
}
