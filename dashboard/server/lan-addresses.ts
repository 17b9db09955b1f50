/**
 * Where browsers can reach the dashboard. Listening on a wildcard host (0.0.0.0, ::) means every interface:
 * this machine opens it at 127.0.0.1, and a phone on the same network needs the machine's LAN address, which
 * the start-up banner prints (a phone cannot open "127.0.0.1", that is the phone itself).
 */
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

export type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

export interface DashboardAddresses {
  /** For this machine's own browser: 127.0.0.1 for a wildcard host, otherwise the host it listens on. */
  readonly local: string;
  /**
   * For other devices on the network: one URL per external IPv4 address (every interface but loopback and
   * link-local 169.254/16, which a phone is rarely on), in the order the system lists them. Empty when the
   * dashboard listens on one host only (then `local` is that host) or the machine has no network.
   */
  readonly lan: readonly string[];
}

const url = (host: string, port: number): string => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** Pure: the URLs for a dashboard listening on `host:port`, given the machine's interfaces. */
export function dashboardAddresses(host: string, port: number, interfaces: Interfaces = networkInterfaces()): DashboardAddresses {
  const wildcard = host === '0.0.0.0' || host === '::' || host === '';
  if (!wildcard) return { local: url(host, port), lan: [] };
  const lan = new Set<string>();
  for (const infos of Object.values(interfaces)) {
    for (const info of infos ?? []) {
      // IPv6 addresses are left out: a phone's browser takes http://192.168.1.20:8080 more readily than a
      // bracketed v6 URL, and every home LAN has IPv4.
      if (info.internal || info.family !== 'IPv4' || info.address.startsWith('169.254.')) continue;
      lan.add(url(info.address, port));
    }
  }
  return { local: url('127.0.0.1', port), lan: [...lan] };
}
