/**
 * The embedded MQTT broker (aedes), so one machine needs nothing else (design principle 7). Clients must log
 * in with a username and password from the configuration; what each may publish and read follows its role
 * (`acl.ts`). A publish the role does not allow is dropped and the client disconnected (aedes cannot refuse a
 * single MQTT 3.1.1 publish otherwise; Mosquitto drops it silently and keeps the connection: either way no
 * subscriber sees it). A subscription the role does not allow is refused in the SUBACK (0x80).
 *
 * Plain TCP, or TLS when a key and certificate are given; optionally also MQTT over WebSocket (`ws://`, or
 * `wss://` with TLS) so browsers and MQTT.js web clients can subscribe, with the same logins, roles and packet
 * limit. Every connection passes the packet size guard before aedes sees a byte.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTlsServer } from 'node:tls';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { mayPublish, mayReceive, maySubscribe, type Role } from './acl.ts';
import { ClientIdOwners } from './client-id-owners.ts';
import { silentLogger, type TransportLogger } from './logger.ts';
import { isBrokerUsername } from './mosquitto-acl.ts';
import { MAX_PACKET_BYTES, guardPacketSize } from './packet-size-guard.ts';
import { DEFAULT_PUBLISH_PACE, PublishPacer, type PublishPacerOptions } from './publish-pacer.ts';
import { baseTopicProblem } from './topics.ts';

/** A broker account from the configuration. */
export interface BrokerUser {
  readonly username: string;
  readonly password: string;
  readonly role: Role;
}

export interface EmbeddedBrokerOptions {
  readonly baseTopic: string;
  readonly users: readonly BrokerUser[];
  /** TCP port; 0 picks a free one (tests). */
  readonly port: number;
  /** Interface to listen on. Default 127.0.0.1; `0.0.0.0` lets overlays and lighting desks on the LAN in. */
  readonly host?: string;
  /** Also listen for MQTT over WebSocket on this port (same host; 0 picks a free one). Default: no WebSocket. */
  readonly websocketPort?: number;
  /** Larger incoming packets close the connection before they are buffered. Default MAX_PACKET_BYTES (256 KiB). */
  readonly maxPacketBytes?: number;
  /** PEM key and certificate: listen with TLS (mqtts://) instead of plain TCP. */
  readonly tls?: { readonly key: string | Buffer; readonly cert: string | Buffer };
  /**
   * How fast a referee's connection may publish (its requests) before the broker stops reading it for a while
   * (`publish-pacer.ts`). Default DEFAULT_PUBLISH_PACE; null: no brake (benchmarks that break it on purpose).
   */
  readonly refereePace?: PublishPacerOptions | null;
  readonly logger?: TransportLogger;
}

/** Counters of what the broker refused, for the health page and the tests. */
export interface BrokerStats {
  readonly refusedConnections: number;
  /** Of the refused connections, those whose client id belongs to another login (client-id-owners.ts). */
  readonly reservedClientIds: number;
  /** Connections closed for a packet over the size limit. */
  readonly oversizePackets: number;
  readonly deniedPublishes: number;
  readonly deniedSubscriptions: number;
  readonly droppedDeliveries: number;
  /** Publishes held back because their connection sent faster than the referee pace. */
  readonly pacedPublishes?: number;
}

// CONNACK return codes (MQTT 3.1.1, table 3.1). aedes declares them as an ambient const enum, which
// isolatedModules cannot read, so they are repeated here.
const IDENTIFIER_REJECTED = 2;
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;

function digest(value: string | Buffer): Buffer {
  return createHash('sha256').update(value).digest();
}

function authError(
  message: string, returnCode: typeof IDENTIFIER_REJECTED | typeof BAD_USERNAME_OR_PASSWORD | typeof NOT_AUTHORIZED,
): AuthenticateError {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- aedes's AuthErrorCode is an ambient const enum that isolatedModules cannot import; these numbers are its wire values
  return Object.assign(new Error(message), { returnCode });
}

/** Why a user list is unusable, or undefined. */
export function brokerUsersProblem(users: readonly BrokerUser[]): string | undefined {
  const names = new Set<string>();
  for (const user of users) {
    if (!isBrokerUsername(user.username)) return `invalid broker username ${JSON.stringify(user.username)} (letters, digits, _ . -)`;
    if (names.has(user.username)) return `broker username ${JSON.stringify(user.username)} appears twice`;
    if (user.password.length === 0) return `broker user ${JSON.stringify(user.username)} has an empty password`;
    names.add(user.username);
  }
  if (!users.some((user) => user.role === 'controller')) return 'no broker user has the controller role';
  return undefined;
}

export class EmbeddedBroker {
  private readonly options: EmbeddedBrokerOptions;
  private readonly logger: TransportLogger;
  private readonly roles = new WeakMap<Client, { readonly username: string; readonly role: Role }>();
  private readonly sockets = new Set<Socket>();
  private readonly pacer: PublishPacer | undefined;
  private readonly counters = {
    refusedConnections: 0, reservedClientIds: 0, oversizePackets: 0,
    deniedPublishes: 0, deniedSubscriptions: 0, droppedDeliveries: 0,
  };

  private owners: ClientIdOwners | undefined;
  private aedes: Aedes | undefined;
  private server: Server | undefined;
  private websocket: { readonly http: HttpServer; readonly wss: WebSocketServer } | undefined;
  private boundWebsocketPort: number | undefined;
  private boundPort: number | undefined;

  constructor(options: EmbeddedBrokerOptions) {
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    const pace = options.refereePace === undefined ? DEFAULT_PUBLISH_PACE : options.refereePace;
    this.pacer = pace === null ? undefined : new PublishPacer(pace);
  }

  /**
   * Starts listening. Throws on an invalid configuration (base topic, users) or when the port is taken.
   * Resolves with the port actually bound.
   */
  async start(): Promise<number> {
    if (this.server !== undefined) throw new Error('the embedded broker is already running');
    const problem = baseTopicProblem(this.options.baseTopic) ?? brokerUsersProblem(this.options.users);
    if (problem !== undefined) throw new Error(`embedded broker: ${problem}`);
    const aedes = await Aedes.createBroker({
      authenticate: (client, username, password, done) => {
        this.authenticate(client, username, password, done);
      },
      authorizePublish: (client, packet, done) => {
        const error = this.authorizePublish(client, packet.topic);
        const wait = error === null && client !== null ? this.paceMs(client) : 0;
        if (wait === 0) done(error);
        else {
          setTimeout(() => {
            done(null);
          }, wait);
        }
      },
      authorizeSubscribe: (client, subscription, done) => {
        done(null, this.authorizeSubscribe(client, subscription.topic) ? subscription : null);
      },
      authorizeForward: (client, packet) => (this.authorizeForward(client, packet.topic) ? packet : null),
    });
    const owners = new ClientIdOwners(this.options.users.map((u) => u.username));
    this.owners = owners;
    aedes.on('client', (client) => {
      owners.connected(client.id);
    });
    aedes.on('clientDisconnect', (client) => {
      owners.disconnected(client.id);
    });
    aedes.on('clientError', (client, error) => {
      this.logger.debug('mqtt client error', { client: client.id, error: error.message });
    });
    const handle = (socket: Socket): void => {
      // Small packets must leave at once: Nagle's algorithm against delayed ACKs costs ~40 ms per hop.
      socket.setNoDelay(true);
      // Tracked so that close() can end connections at once instead of waiting for clients to leave.
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      aedes.handle(this.guarded(socket));
    };
    const server = this.options.tls === undefined ? createServer(handle) : createTlsServer(this.options.tls, handle);
    this.aedes = aedes;
    this.server = server;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(this.options.port, this.options.host ?? '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      await this.close();
      throw error;
    }
    this.boundPort = (server.address() as AddressInfo).port;
    if (this.options.websocketPort !== undefined) {
      try {
        this.boundWebsocketPort = await this.listenWebsocket(aedes, this.options.websocketPort);
      } catch (error) {
        await this.close();
        throw error;
      }
    }
    this.logger.info('embedded mqtt broker listening', { host: this.options.host ?? '127.0.0.1', port: this.boundPort, tls: this.options.tls !== undefined });
    return this.boundPort;
  }

  /** Serves MQTT over WebSocket; resolves with the bound port. */
  private async listenWebsocket(aedes: Aedes, port: number): Promise<number> {
    const host = this.options.host ?? '127.0.0.1';
    const http = this.options.tls === undefined ? createHttpServer() : createHttpsServer(this.options.tls);
    // ws refuses a larger message itself; the guard then checks MQTT packets, which may span messages.
    const wss = new WebSocketServer({ server: http, maxPayload: (this.options.maxPacketBytes ?? MAX_PACKET_BYTES) + 1024 });
    this.websocket = { http, wss };
    wss.on('connection', (ws, request) => {
      const stream = createWebSocketStream(ws);
      stream.on('error', () => undefined);
      aedes.handle(this.guarded(stream, request.socket.remoteAddress));
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(port, host, () => {
        http.off('error', reject);
        resolve();
      });
    });
    const bound = (http.address() as AddressInfo).port;
    this.logger.info('embedded mqtt broker listening for websockets', { host, port: bound, tls: this.options.tls !== undefined });
    return bound;
  }

  /** The WebSocket port, when one was configured; throws before `start()`. */
  get websocketPort(): number | undefined {
    return this.boundWebsocketPort;
  }

  /** The bound port; throws before `start()`. */
  get port(): number {
    if (this.boundPort === undefined) throw new Error('the embedded broker has not started');
    return this.boundPort;
  }

  /** The URL clients connect to (with the host clients on this machine use). */
  get url(): string {
    const host = this.options.host === undefined || this.options.host === '0.0.0.0' ? '127.0.0.1' : this.options.host;
    return `${this.options.tls === undefined ? 'mqtt' : 'mqtts'}://${host}:${this.port}`;
  }

  stats(): BrokerStats {
    return { ...this.counters, ...(this.pacer === undefined ? {} : { pacedPublishes: this.pacer.delayedCount }) };
  }

  /** How long a referee's publish waits before aedes handles it (and reads that connection on); 0 for others. */
  private paceMs(client: Client): number {
    if (this.pacer === undefined || this.roles.get(client)?.role !== 'referee') return 0;
    return this.pacer.delayMs(client);
  }

  /** Disconnects every client and stops listening. Safe to call twice. */
  async close(): Promise<void> {
    const { aedes, server, websocket } = this;
    this.aedes = undefined;
    this.server = undefined;
    this.websocket = undefined;
    this.boundPort = undefined;
    this.boundWebsocketPort = undefined;
    if (websocket !== undefined) {
      for (const ws of websocket.wss.clients) ws.terminate();
      websocket.wss.close();
      websocket.http.closeAllConnections();
      await new Promise<void>((resolve) => {
        websocket.http.close(() => {
          resolve();
        });
      });
    }
    if (aedes !== undefined) {
      await new Promise<void>((resolve) => {
        aedes.close(() => {
          resolve();
        });
      });
    }
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server?.listening === true) {
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    }
  }

  /** The connection as aedes reads it: through the packet size limit. */
  private guarded(connection: Duplex, peer?: string): Duplex {
    const max = this.options.maxPacketBytes ?? MAX_PACKET_BYTES;
    return guardPacketSize(connection, max, (bytes) => {
      this.counters.oversizePackets++;
      this.logger.warn('mqtt packet over the size limit; connection closed', { peer, bytes: Number.isFinite(bytes) ? bytes : -1, max });
    });
  }

  private authenticate(
    client: Client, username: string | undefined, password: Buffer | undefined,
    done: (error: AuthenticateError | null, success: boolean | null) => void,
  ): void {
    if (username === undefined || username.length === 0) {
      this.refuse(client, '(anonymous)', 'no username');
      done(authError('anonymous clients are not allowed', NOT_AUTHORIZED), false);
      return;
    }
    const candidate = digest(password ?? Buffer.alloc(0));
    let match: BrokerUser | undefined;
    // Hash and compare against every user so timing does not tell which usernames exist.
    for (const user of this.options.users) {
      if (timingSafeEqual(digest(user.password), candidate) && user.username === username) match = user;
    }
    if (match === undefined) {
      this.refuse(client, username, 'bad username or password');
      done(authError('bad username or password', BAD_USERNAME_OR_PASSWORD), false);
      return;
    }
    // Every client id belongs to one login: a viewer cannot throw a referee (or the controller) off by its id.
    const claim = this.owners?.claim(client.id, match.username) ?? { ok: true };
    if (!claim.ok) {
      this.counters.reservedClientIds++;
      this.refuse(client, username, claim.why === 'reserved' ? `client id reserved to ${claim.owner}` : `client id in use by ${claim.owner}`);
      done(authError('this client id belongs to another login', IDENTIFIER_REJECTED), false);
      return;
    }
    this.roles.set(client, { username: match.username, role: match.role });
    done(null, true);
  }

  private authorizePublish(client: Client | null, topic: string): Error | null {
    // A null client is a will left by a broker that is gone (clusters only); nobody vouches for it.
    const who = client === null ? undefined : this.roles.get(client);
    if (who !== undefined && client !== null && mayPublish(who.role, this.options.baseTopic, topic, client.id)) return null;
    this.counters.deniedPublishes++;
    this.logger.warn('mqtt publish refused', { client: client?.id, username: who?.username, role: who?.role, topic: topic.slice(0, 200) });
    return new Error(`not allowed to publish to ${topic}`);
  }

  private authorizeSubscribe(client: Client, filter: string): boolean {
    const who = this.roles.get(client);
    if (who !== undefined && maySubscribe(who.role, this.options.baseTopic, filter, client.id)) return true;
    this.counters.deniedSubscriptions++;
    this.logger.info('mqtt subscription refused', { client: client.id, username: who?.username, filter: filter.slice(0, 200) });
    return false;
  }

  private authorizeForward(client: Client, topic: string): boolean {
    // Defence in depth: subscriptions were checked, but a message is checked again before delivery.
    const who = this.roles.get(client);
    if (who !== undefined && mayReceive(who.role, this.options.baseTopic, topic, client.id)) return true;
    this.counters.droppedDeliveries++;
    return false;
  }

  private refuse(client: Client, username: string, reason: string): void {
    this.counters.refusedConnections++;
    this.logger.warn('mqtt connection refused', { client: client.id, username, reason });
  }
}
