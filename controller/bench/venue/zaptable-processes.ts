/**
 * The venue's own processes for `bench venue`: N controllers (`zaptable start`, simulated tables played by
 * bots, dashboard off: the venue serves it) and the venue dashboard (`zaptable dashboard`, following every
 * controller under the base topic with its own account), each from a configuration file as docs/venue.md
 * writes them. They run `bin/zaptable.mjs`: the bundle when it is current, the sources otherwise.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { CONTROLLER_NODE_FLAGS } from '../../app/node-flags.ts';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { projectFile } from '../../config/project-root.ts';
import type { MosquittoUser } from '../mosquitto.ts';
import { DASHBOARD_USER, VENUE_BASE } from './brokers.ts';

const GAMES = ['zip-zap', 'zapp-zerapp'] as const;
const START_TIMEOUT_MS = 120_000;

export interface VenueShape {
  readonly controllers: number;
  readonly tablesPerController: number;
  /** The simulated table's speed (`hardware.simulated.speed`): how fast the bots play. */
  readonly speed: number;
  /**
   * Every table's `timing.arbitrationWindowMs`; undefined leaves the table's default (30 ms). A play waits that
   * long for earlier-stamped plays from other stations, so it is a floor under a card play's latency.
   */
  readonly arbitrationWindowMs?: number;
}

/** A running `zaptable` process. */
export interface ZaptableProcess {
  readonly pid: number;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

const controllerId = (index: number): string => `pi-${index + 1}`;
const tokenOf = (id: string): string => `${id}-bench-token-0123456`;

/** Every table id of the venue, controller by controller. */
export function venueTables(shape: VenueShape): string[] {
  return Array.from({ length: shape.controllers }, (_, i) => Array.from({ length: shape.tablesPerController }, (_, t) => `${controllerId(i)}-t${t + 1}`)).flat();
}

/** The controllers' broker accounts, each scoped to its own tables. */
export function controllerAccounts(shape: VenueShape): MosquittoUser[] {
  return Array.from({ length: shape.controllers }, (_, i) => {
    const id = controllerId(i);
    return {
      username: `ctl-${id}`, password: `ctl-${id}-password`, role: 'controller' as const,
      venue: { controller: id, tables: Array.from({ length: shape.tablesPerController }, (_, t) => `${id}-t${t + 1}`) },
    };
  });
}

function controllerConfig(dir: string, index: number, shape: VenueShape, url: string): string {
  const id = controllerId(index);
  const file = path.join(dir, `${id}.yaml`);
  const tables = Array.from({ length: shape.tablesPerController }, (_, t) => ({ id: `${id}-t${t + 1}`, game: GAMES[t % 2] ?? 'zip-zap' }));
  writeFileSync(file, [
    'tables:',
    ...tables.flatMap((t) => [
      `  - id: ${t.id}`, `    mode: ${t.game}`, '    seats: [{ id: a }, { id: b }, { id: c }]',
      ...(shape.arbitrationWindowMs === undefined ? [] : [`    timing: { arbitrationWindowMs: ${shape.arbitrationWindowMs} }`]),
    ]),
    `hardware: { kind: simulated, simulated: { speed: ${shape.speed}, bots: true } }`,
    `controller: { id: ${id} }`,
    'mqtt:',
    `  baseTopic: ${VENUE_BASE}`,
    '  broker: external',
    `  external: { url: "${url}" }`,
    `  controller: { username: ctl-${id}, password: ctl-${id}-password }`,
    `dashboard: { enabled: false, token: ${tokenOf(id)} }`,
    'log: { level: warn }',
    `storage: { directory: ${JSON.stringify(path.join(dir, id))} }`,
    '',
  ].join('\n'));
  return file;
}

function dashboardConfig(dir: string, shape: VenueShape, url: string, port: number): string {
  const file = path.join(dir, 'venue-dashboard.yaml');
  writeFileSync(file, [
    'hardware: { kind: simulated }',
    'mqtt:',
    `  baseTopic: ${VENUE_BASE}`,
    '  broker: external',
    `  external: { url: "${url}" }`,
    'dashboard:',
    '  host: 127.0.0.1',
    `  port: ${port}`,
    '  token: venue-bench-dashboard-token-0123',
    `  mqtt: { username: ${DASHBOARD_USER.username}, password: ${DASHBOARD_USER.password} }`,
    '  controllerTokens:',
    ...Array.from({ length: shape.controllers }, (_, i) => `    - { controller: ${controllerId(i)}, token: ${tokenOf(controllerId(i))} }`),
    'log: { level: warn }',
    `storage: { directory: ${JSON.stringify(path.join(dir, 'dashboard'))} }`,
    '',
  ].join('\n'));
  return file;
}

/**
 * Starts `node <flags> dist/zaptable.mjs <args>` (the caller built dist/ first: `buildBundle`) and resolves once
 * its output matches `ready` (rejects if it exits first or times out). A controller runs as a Pi runs it, with the
 * controller's flags (memory first); the venue dashboard as a laptop runs it, with none (its fan-out is CPU).
 */
async function startZaptable(
  label: string, flags: readonly string[], args: readonly string[], ready: RegExp,
): Promise<ZaptableProcess> {
  const child: ChildProcessByStdio<null, Readable, Readable> = spawn(
    process.execPath, [...flags, projectFile('dist', 'zaptable.mjs'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  let text = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${label} did not start within ${START_TIMEOUT_MS / 1000} s:\n${text}`));
    }, START_TIMEOUT_MS);
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with ${String(code)} before it ran:\n${text}`));
    };
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      if (!ready.test(text)) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve({ pid: child.pid ?? 0, stop });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Starts the N controllers at once; resolves once every one runs. */
export async function startControllers(dir: string, shape: VenueShape, brokerUrl: string): Promise<ZaptableProcess[]> {
  const started = await Promise.allSettled(Array.from({ length: shape.controllers }, async (_, i) =>
    startZaptable(`controller ${controllerId(i)}`, CONTROLLER_NODE_FLAGS, ['start', '--config', controllerConfig(dir, i, shape, brokerUrl)], /Press Ctrl-C to stop\./)));
  const running = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed !== undefined) {
    await Promise.all(running.map(async (p) => p.stop()));
    throw failed.reason;
  }
  return running;
}

/** Starts the venue dashboard on `port`; resolves with its URL once it listens. */
export async function startVenueDashboard(
  dir: string, shape: VenueShape, brokerUrl: string, port: number,
): Promise<ZaptableProcess & { url: string }> {
  const args = ['dashboard', '--config', dashboardConfig(dir, shape, brokerUrl, port)];
  const proc = await startZaptable('the venue dashboard', [], args, /dashboard: http:\/\/\S+/);
  return { ...proc, url: `http://127.0.0.1:${port}` };
}
