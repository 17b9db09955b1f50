/**
 * A throw-away Mosquitto for the benchmarks: Debian's `mosquitto` started on a free loopback port from a
 * generated configuration (password file made with `mosquitto_passwd`, ACL file from `mosquittoAcl`, no
 * persistence), in a temporary folder that `dispose()` removes together with the process. The same set-up as
 * the MQTT contract tests (test/transport/support/brokers.ts); product code may not import tests, hence this copy.
 *
 * The child is also killed when this process exits (an `exit` hook), so an error or Ctrl-C during a run
 * leaves no broker behind.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { MAX_PACKET_BYTES, mosquittoAcl, type BrokerAccount, type BrokerUser } from '../transport/index.ts';

/** A broker account with its password; a controller at a venue also with its id and tables (`BrokerAccount.venue`). */
export type MosquittoUser = BrokerUser & Pick<BrokerAccount, 'venue'>;

/** A running broker. */
export interface BenchBroker {
  readonly name: string;
  readonly url: string;
  /** The broker's process id when it runs in a process of its own (for measuring its memory). */
  readonly pid?: number;
  /** Stops it and removes its files. Safe to call twice. */
  dispose(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released for the broker to take). */
export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

/** Resolves once something accepts TCP connections on the loopback port; rejects when `exited` names a reason. */
export async function waitForPort(port: number, timeoutMs: number, exited: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => {
        resolve(false);
      });
    });
    if (ok) return;
    const why = exited();
    if (why !== undefined) throw new Error(why);
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A runnable program: on the PATH, or in the directory Debian installs it to (/usr/sbin is not on every PATH). */
export function program(name: string, installedIn: string): string | undefined {
  for (const candidate of [name, path.join(installedIn, name)]) {
    if (spawnSync(candidate, ['-h'], { stdio: 'ignore' }).error === undefined) return candidate;
  }
  return undefined;
}

/** Why Mosquitto cannot be started here, or undefined when it can. */
export function mosquittoProblem(): string | undefined {
  if (program('mosquitto', '/usr/sbin') === undefined) return 'mosquitto is not installed (apt-get install mosquitto)';
  if (program('mosquitto_passwd', '/usr/bin') === undefined) return 'mosquitto_passwd is not installed (package mosquitto)';
  return undefined;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const c of running) c.kill('SIGKILL');
  });
}

/**
 * Mosquitto's queue limits for zaptable (docs/mqtt.md), global options in 2.0 (no per-client setting exists).
 * Every request reaches the controller's one bridge connection; with the default 20 messages in flight and 1000
 * queued per client, a burst of requests faster than the controller reads them is dropped by the broker
 * ("Outgoing messages are being dropped") before the controller could answer it. The controller answers a
 * flood at once (RATE_LIMITED costs microseconds), so it needs a deep queue, not a slow one; the bytes limit
 * keeps a stalled subscriber from holding more than 16 MiB.
 */
export const MOSQUITTO_QUEUE_LIMITS: readonly string[] = [
  'max_inflight_messages 100',
  'max_queued_messages 100000',
  'max_queued_bytes 16777216',
];

/**
 * Writes a Mosquitto configuration into `dir` for these accounts under `baseTopic`: a password file (made with
 * `mosquitto_passwd`), the ACL file the transport generates, a loopback listener on `port`, no persistence.
 * Returns the configuration file's path.
 */
export async function writeMosquittoConfig(
  dir: string,
  options: {
    readonly baseTopic: string; readonly users: readonly MosquittoUser[]; readonly port: number; readonly passwd: string;
    /** Further lines at the end of the file (a bridge's `connection` section). */
    readonly extra?: readonly string[];
  },
): Promise<string> {
  const { baseTopic, users, port, passwd } = options;
  const passwordFile = path.join(dir, 'passwd');
  const aclFile = path.join(dir, 'acl');
  const confFile = path.join(dir, 'mosquitto.conf');
  await writeFile(passwordFile, '');
  for (const user of users) await promisify(execFile)(passwd, ['-b', passwordFile, user.username, user.password]);
  await writeFile(aclFile, mosquittoAcl(baseTopic, users));
  await writeFile(confFile, [
    `listener ${port} 127.0.0.1`,
    'allow_anonymous false',
    `password_file ${passwordFile}`,
    `acl_file ${aclFile}`,
    'persistence false',
    'set_tcp_nodelay true',
    // The same limit as the embedded broker's (MAX_PACKET_BYTES): a bigger packet closes the connection
    // before Mosquitto buffers it.
    `max_packet_size ${MAX_PACKET_BYTES}`,
    ...MOSQUITTO_QUEUE_LIMITS,
    'log_dest stderr',
    'log_type error',
    'log_type warning',
    ...runAsLines(),
    ...(options.extra ?? []),
    '',
  ].join('\n'));
  return confFile;
}

/**
 * As root (the CI container) Mosquitto would switch to the `mosquitto` user, who cannot read a private
 * temporary folder; `user root` means "do not switch".
 */
export function runAsLines(): string[] {
  return process.getuid?.() === 0 ? ['user root'] : [];
}

/** Starts Mosquitto with these accounts under `baseTopic`, listening on 127.0.0.1 only; `extra`: further lines. */
export async function startMosquitto(
  baseTopic: string, users: readonly MosquittoUser[], extra?: readonly string[],
): Promise<BenchBroker> {
  return startMosquittoWith(async (dir, port, passwd) => writeMosquittoConfig(dir, {
    baseTopic, users, port, passwd, ...(extra === undefined ? {} : { extra }),
  }));
}

/**
 * Starts Mosquitto on a free loopback port from the configuration file `configure` writes into a fresh
 * temporary folder (given the folder, the port and the `mosquitto_passwd` program); returns its path.
 */
export async function startMosquittoWith(
  configure: (dir: string, port: number, passwd: string) => Promise<string>,
): Promise<BenchBroker> {
  const broker = program('mosquitto', '/usr/sbin');
  const passwd = program('mosquitto_passwd', '/usr/bin');
  if (broker === undefined || passwd === undefined) throw new Error(mosquittoProblem());
  const dir = await mkdtemp(path.join(tmpdir(), 'zaptable-bench-mosquitto-'));
  let child: ChildProcess | undefined;
  const dispose = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (proc !== undefined && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const port = await freeLoopbackPort();
    const confFile = await configure(dir, port, passwd);
    const proc = spawn(broker, ['-c', confFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = proc;
    killOnExit(proc);
    let stderr = '';
    let exitedWith: string | undefined;
    proc.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    proc.once('exit', (code, signal) => {
      exitedWith = `mosquitto exited (${code ?? signal ?? '?'}) before listening:\n${stderr}`;
    });
    await waitForPort(port, 10_000, () => exitedWith);
    return { name: 'Mosquitto', url: `mqtt://127.0.0.1:${port}`, pid: proc.pid ?? 0, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
