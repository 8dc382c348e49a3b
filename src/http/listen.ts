/**
 * Listen addresses as Go's `net.Listen` (and so Prometheus' `--web.listen-address`) reads them,
 * and binding a server to one. Every listener of the product (the server's main and OTLP
 * listeners, the gateway, the simulator) goes through these two, so `:9300` means the same
 * everywhere: all interfaces, IPv4 and IPv6.
 */
import type { Server } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A parsed listen address; `host` undefined means all interfaces (Node's `::` with dual stack). */
export interface ListenAddress {
  readonly host: string | undefined;
  readonly port: number;
}

/**
 * Parses `host:port`, `[v6]:port` or `:port`. An empty host means all interfaces, as in Go (not
 * `0.0.0.0`, which is IPv4 only); brackets around an IPv6 host are dropped, and an IPv6 host
 * without them is refused (Go's `SplitHostPort`: too many colons). Throws on a missing or
 * out-of-range port.
 */
export function parseListenAddress(listen: string): ListenAddress {
  const m = /^(\[[^\]]*\]|[^:[\]]*):(\d+)$/.exec(listen);
  if (!m) throw new Error(`invalid listen address ${JSON.stringify(listen)}: want host:port`);
  const port = Number(m[2]);
  if (port > 65535) throw new Error(`invalid port in listen address ${JSON.stringify(listen)}`);
  const host = m[1] === '' ? undefined : m[1].replace(/^\[(.*)\]$/, '$1');
  return { host, port };
}

/** `host:port` of a bound socket, with brackets around an IPv6 host (usable in a URL). */
export function formatHostPort(a: AddressInfo): string {
  return `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
}

/**
 * Binds `server` to `address` (see `parseListenAddress`) and resolves with the bound socket's
 * address once it listens; rejects with Node's listen error (`EADDRINUSE`, `EACCES`, …, which
 * carry `syscall: 'listen'` and `port` for the CLI's one-line message) and leaves no listener on
 * the server behind either way.
 */
export async function listenOn(server: Server, address: string): Promise<AddressInfo> {
  const { host, port } = parseListenAddress(address);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server.address() as AddressInfo;
}
