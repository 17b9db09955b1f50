/**
 * A TCP relay between the controller and the broker, so a test can cut the connection abruptly (as a pulled
 * cable or a killed process would) without reaching into the MQTT client: the broker sees the socket die
 * without a DISCONNECT and must publish the last will.
 */
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export class TcpProxy {
  private readonly targetPort: number;
  private readonly pairs = new Set<readonly [Socket, Socket]>();
  private server: Server | undefined;
  private refusing = false;

  constructor(targetPort: number) {
    this.targetPort = targetPort;
  }

  /** Listens on a free port; resolves with it. */
  async start(): Promise<number> {
    const server = createServer((downstream) => {
      if (this.refusing) {
        // The link is down: a connection attempt fails as one to an unreachable host would, at once.
        downstream.resetAndDestroy();
        return;
      }
      const upstream = createConnection({ port: this.targetPort, host: '127.0.0.1', noDelay: true });
      downstream.setNoDelay(true);
      const pair = [downstream, upstream] as const;
      this.pairs.add(pair);
      const drop = (): void => {
        this.pairs.delete(pair);
        downstream.destroy();
        upstream.destroy();
      };
      downstream.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      downstream.pipe(upstream);
      upstream.pipe(downstream);
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  /** Resets every relayed connection at once (RST, no goodbye on either side). */
  cutAll(): void {
    for (const [downstream, upstream] of this.pairs) {
      upstream.resetAndDestroy();
      downstream.resetAndDestroy();
    }
    this.pairs.clear();
  }

  /** Cuts every relayed connection and refuses new ones until `restore()`: a network link that is down. */
  breakLink(): void {
    this.refusing = true;
    this.cutAll();
  }

  /** Relays new connections again. */
  restore(): void {
    this.refusing = false;
  }

  async close(): Promise<void> {
    this.cutAll();
    const server = this.server;
    this.server = undefined;
    if (server !== undefined) {
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    }
  }
}
