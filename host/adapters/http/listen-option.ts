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
