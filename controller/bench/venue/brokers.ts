/**
 * The two brokers of `bench venue`, as a venue runs them:
 * - the venue Mosquitto (docs/venue.md): an account and a scoped ACL per controller, the venue dashboard's own
 *   account, the MQTT viewers' account; and the bridge to the public broker, exactly the `connection` section
 *   `zaptable mosquitto-config bridge` prints;
 * - the public Mosquitto (docs/venue-broadcast.md): exactly the settings and ACL `zaptable mosquitto-config
 *   public` prints (anonymous audience, read-only), with an MQTT listener for the bridge and a WebSocket
 *   listener (`protocol websockets`) for the audience, as a browser reaches it.
 *
 * `fault: 'bridge-cut'` puts a TCP relay (this process) between the bridge and the public broker, so the bench
 * can cut the public link for a moment: the events published meanwhile never reach the audience (the bridge's
 * `cleansession true` keeps nothing for it), which the bench must report as lost deliveries.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { mosquittoPublicBridge, publicBrokerAcl, publicBrokerSettings } from '../../transport/mosquitto-bridge.ts';
import {
  freeLoopbackPort, runAsLines, startMosquitto, startMosquittoWith, type BenchBroker, type MosquittoUser,
} from '../mosquitto.ts';

export const VENUE_BASE = 'venue-bench';
/** The venue dashboard's account (a referee: it relays the referees' requests) and the MQTT viewers'. */
export const DASHBOARD_USER = { username: 'bench-dashboard', password: 'bench-dashboard-pass' } as const;
export const VIEWER_USER = { username: 'bench-viewer', password: 'bench-viewer-pass' } as const;
const BRIDGE_USER = { username: 'venue-bridge', password: 'bench-bridge-pass' } as const;

export interface PublicBroker extends BenchBroker {
  /** `ws://127.0.0.1:<port>`: the audience's listener (empty when started without one). */
  readonly wsUrl: string;
}

export interface VenueBrokers {
  readonly venue: BenchBroker;
  readonly public: PublicBroker;
  /** With `bridge-cut`: drops the bridge's connection and refuses it for `ms`. */
  cutBridge?(ms: number): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * A public broker as docs/venue-broadcast.md sets it up: exactly `zaptable mosquitto-config public`'s settings and
 * ACL for `baseTopic` (the audience anonymous and read-only, `bridgeUser` the only writer), an MQTT listener for
 * the bridge and, with `webSocket`, a WebSocket one for the audience (`wsUrl`; empty without). Also the broadcast
 * test's public broker, so the bench and the test measure and check the same set-up.
 */
export async function startPublicBroker(
  baseTopic: string, bridgeUser: { readonly username: string; readonly password: string }, webSocket: boolean,
): Promise<PublicBroker> {
  const wsPort = webSocket ? await freeLoopbackPort() : undefined;
  const broker = await startMosquittoWith(async (dir, port, passwd) => {
    const passwordFile = path.join(dir, 'passwd');
    const aclFile = path.join(dir, 'acl');
    await writeFile(passwordFile, '');
    await promisify(execFile)(passwd, ['-b', passwordFile, bridgeUser.username, bridgeUser.password]);
    await writeFile(aclFile, publicBrokerAcl(baseTopic, bridgeUser.username));
    const confFile = path.join(dir, 'mosquitto.conf');
    await writeFile(confFile, [
      `listener ${port} 127.0.0.1`, ...(wsPort === undefined ? [] : [`listener ${wsPort} 127.0.0.1`, 'protocol websockets']),
      ...publicBrokerSettings({ passwordFile, aclFile }), ...runAsLines(), 'log_dest stderr', 'log_type error', '',
    ].join('\n'));
    return confFile;
  });
  return { ...broker, wsUrl: wsPort === undefined ? '' : `ws://127.0.0.1:${wsPort}` };
}

/** A TCP relay from a loopback port to `target`; `cut(ms)` closes every connection and refuses new ones for `ms`. */
async function startRelay(target: number): Promise<{ port: number; cut(ms: number): Promise<void>; close(): Promise<void> }> {
  const port = await freeLoopbackPort();
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const listen = async (): Promise<Server> => {
    const server = createServer((inbound) => {
      const outbound = createConnection({ port: target, host: '127.0.0.1' });
      track(inbound);
      track(outbound);
      inbound.pipe(outbound);
      outbound.pipe(inbound);
      inbound.once('close', () => outbound.destroy());
      outbound.once('close', () => inbound.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    return server;
  };
  let server = await listen();
  const close = async (): Promise<void> => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return {
    port,
    close,
    async cut(ms) {
      await close();
      await new Promise((resolve) => setTimeout(resolve, ms));
      server = await listen();
    },
  };
}

/** Starts the public broker, then the venue broker with its bridge to it; `users`: the venue's accounts. */
export async function startVenueBrokers(users: readonly MosquittoUser[], fault: 'bridge-cut' | undefined): Promise<VenueBrokers> {
  const publicBroker = await startPublicBroker(VENUE_BASE, BRIDGE_USER, true);
  const relay = fault === 'bridge-cut' ? await startRelay(Number(new URL(publicBroker.url).port)) : undefined;
  try {
    const bridge = mosquittoPublicBridge({
      baseTopic: VENUE_BASE, address: `127.0.0.1:${relay?.port ?? new URL(publicBroker.url).port}`,
      remoteUsername: BRIDGE_USER.username, remotePassword: BRIDGE_USER.password, restartTimeoutS: 1,
    });
    const venue = await startMosquitto(VENUE_BASE, [
      ...users, { ...DASHBOARD_USER, role: 'referee' }, { ...VIEWER_USER, role: 'viewer' },
    ], bridge.split('\n'));
    return {
      venue,
      public: publicBroker,
      ...(relay === undefined ? {} : { cutBridge: async (ms: number) => relay.cut(ms) }),
      async dispose() {
        await venue.dispose();
        await relay?.close();
        await publicBroker.dispose();
      },
    };
  } catch (error) {
    await relay?.close();
    await publicBroker.dispose();
    throw error;
  }
}
