/**
 * The configuration every dashboard harness runs the real controller with: its tables on the simulated table
 * (bots off), the embedded broker and the dashboard on loopback ports, storage in a temp folder. Built as a
 * file would be and validated by the same `validateConfig` as `zaptable start`.
 */
import path from 'node:path';
import { validateConfig, type ZaptableConfig } from '../../../controller/config/index.ts';

export interface HarnessAccounts {
  readonly baseTopic: string;
  readonly token: string;
  readonly controller: { readonly username: string; readonly password: string };
  readonly dashboard: { readonly username: string; readonly password: string };
}

export function harnessConfig(options: {
  /** The `tables` entries, as in a zaptable.yaml. */
  readonly tables: readonly Record<string, unknown>[];
  readonly dir: string;
  readonly ports: { readonly mqtt: number; readonly http: number };
  readonly accounts: HarnessAccounts;
  /** `hardware.simulated.pileStation`; left to the default when undefined. */
  readonly pileStation?: boolean;
}): ZaptableConfig {
  const { dir, ports, accounts } = options;
  const result = validateConfig({
    tables: options.tables,
    hardware: { kind: 'simulated', simulated: { bots: false, ...(options.pileStation === undefined ? {} : { pileStation: options.pileStation }) } },
    mqtt: { baseTopic: accounts.baseTopic, embedded: { host: '127.0.0.1', port: ports.mqtt }, controller: accounts.controller },
    dashboard: { host: '127.0.0.1', port: ports.http, token: accounts.token, mqtt: accounts.dashboard },
    // validateConfig does not resolve paths (loadConfig does): absolute ones here.
    storage: {
      directory: dir, database: path.join(dir, 'zaptable.db'), registry: path.join(dir, 'tags.json'),
      calibration: path.join(dir, 'calibration.json'),
    },
    log: { level: 'warn' },
  });
  if (!result.ok) throw new Error(`test config: ${JSON.stringify(result.errors)}`);
  return result.config;
}
