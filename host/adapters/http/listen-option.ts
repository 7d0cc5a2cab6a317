// `chessclock host --listen [HOST:]PORT`: where the API and dashboard listen. Loopback by
// default; a hall LAN address must be given explicitly.
export interface ListenTarget {
  readonly host: string;
  readonly port: number;
}

export const DEFAULT_LISTEN: ListenTarget = { host: '127.0.0.1', port: 8080 };

export function parseListenOption(value: string | undefined): ListenTarget {
  if (value === undefined) return DEFAULT_LISTEN;
  const m = /^(?:(\[[0-9a-fA-F:]+\]|[^:]+):)?([0-9]{1,5})$/.exec(value);
  if (!m || Number(m[2]) > 65535) {
    throw new Error(`--listen "${value}": expected [HOST:]PORT, e.g. 8080 or 127.0.0.1:8080`);
  }
  return { host: m[1] ? m[1].replace(/^\[|\]$/g, '') : DEFAULT_LISTEN.host, port: Number(m[2]) };
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Whether an address the API listens on is reachable from this machine only. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase()) || /^127\./.test(host);
}

/**
 * The Host names the API answers when it listens on `listenHost` (docs/api.md "Allowed hosts"):
 * the configured names, the listen address itself, localhost, 127.0.0.1 and [::1]; beyond
 * loopback also this machine's name and addresses. A page on any other name gets 403, on
 * loopback too: a page in the hall PC's own browser whose name an attacker rebinds to
 * 127.0.0.1 (DNS rebinding) would otherwise reach the API as same-origin, and could lock the
 * arbiter out by failing sign-ins from the arbiter's own address.
 */
export function allowedHostsFor(listenHost: string, configured: readonly string[] = [], machine: { hostname: string; addresses: readonly string[] }): string[] {
  const wildcard = listenHost === '0.0.0.0' || listenHost === '::';
  const names = [
    ...configured,
    ...(wildcard ? machine.addresses : [listenHost]),
    ...(isLoopback(listenHost) ? [] : [machine.hostname]),
    'localhost',
    '127.0.0.1',
    '::1',
  ];
  return [...new Set(names.map((n) => (n.includes(':') && !n.startsWith('[') ? `[${n}]` : n).toLowerCase()))];
}
