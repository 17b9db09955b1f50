/**
 * The brokers the MQTT contract suite runs against: the embedded aedes broker (always) and a real Mosquitto
 * started here from a generated configuration with password and ACL files (design principle 7). Both are
 * restartable on the same port, for the "republished after a broker restart" contract.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freeLoopbackPort, program, waitForPort, writeMosquittoConfig } from '../../../controller/bench/mosquitto.ts';
import { EmbeddedBroker, type BrokerUser } from '../../../controller/transport/embedded-broker.ts';

/** A running broker under test. */
export interface BrokerUnderTest {
  readonly name: string;
  readonly url: string;
  /** Stops the broker abruptly-enough (retained messages are lost: no persistence). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  restart(): Promise<void>;
  /** Stops it for good and removes its files. */
  dispose(): Promise<void>;
}

export interface BrokerFactory {
  readonly name: string;
  start(options: { readonly baseTopic: string; readonly users: readonly BrokerUser[] }): Promise<BrokerUnderTest>;
}

/** A free TCP port on 127.0.0.1 (the same helper the benchmarks use). */
export const freePort = freeLoopbackPort;

export const aedesFactory: BrokerFactory = {
  name: 'embedded aedes',
  async start({ baseTopic, users }) {
    const port = await freePort();
    let broker = new EmbeddedBroker({ baseTopic, users, port });
    await broker.start();
    return {
      name: 'embedded aedes',
      url: broker.url,
      stop: async () => broker.close(),
      async restart() {
        broker = new EmbeddedBroker({ baseTopic, users, port });
        await broker.start();
      },
      dispose: async () => broker.close(),
    };
  },
};

/** The message a missing Mosquitto fails with: the suite must not be skipped silently. */
export const MOSQUITTO_MISSING = 'The `mosquitto` binary is not installed, so the MQTT contract cannot be checked against a real broker. '
  + 'Run the README test command (bash test/run-all.sh), which installs Debian\'s mosquitto package, '
  + 'or install it yourself: apt-get install -y mosquitto';

const MOSQUITTO = program('mosquitto', '/usr/sbin');
const MOSQUITTO_PASSWD = program('mosquitto_passwd', '/usr/bin');

/** Whether Debian's mosquitto (and mosquitto_passwd, from the same package) can be run. */
export function mosquittoInstalled(): boolean {
  return MOSQUITTO !== undefined && MOSQUITTO_PASSWD !== undefined;
}

export const mosquittoFactory: BrokerFactory = {
  name: 'Mosquitto',
  async start({ baseTopic, users }) {
    if (MOSQUITTO === undefined || MOSQUITTO_PASSWD === undefined) throw new Error(MOSQUITTO_MISSING);
    const [broker, passwd] = [MOSQUITTO, MOSQUITTO_PASSWD];
    const dir = await mkdtemp(path.join(tmpdir(), 'zaptable-mosquitto-'));
    const port = await freePort();
    const confFile = await writeMosquittoConfig(dir, { baseTopic, users, port, passwd });
    let child: ChildProcess | undefined;
    let stderr = '';
    const launch = async (): Promise<void> => {
      const proc = spawn(broker, ['-c', confFile], { stdio: ['ignore', 'ignore', 'pipe'] });
      child = proc;
      let exitedWith: string | undefined;
      proc.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      proc.once('exit', (code, signal) => {
        exitedWith = `mosquitto exited (${code ?? signal ?? '?'}) before listening:\n${stderr}`;
      });
      await waitForPort(port, 10_000, () => exitedWith);
    };
    const halt = async (): Promise<void> => {
      const proc = child;
      child = undefined;
      if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
    };
    await launch();
    return {
      name: 'Mosquitto',
      url: `mqtt://127.0.0.1:${port}`,
      stop: halt,
      restart: launch,
      async dispose() {
        await halt();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
};
