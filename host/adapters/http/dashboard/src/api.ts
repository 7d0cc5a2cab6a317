// The arbiter's calls to the HTTP API (docs/api.md), with the signed-in token. A 401 (the
// token was revoked, or the host restarted with other tokens) signs the page out, saying why.

const TOKEN_KEY = 'chessclock-token';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

let token = '';
const unauthorizedListeners = new Set<(reason: string) => void>();

export function currentToken(): string {
  return token;
}

/** The token kept for this tab (sessionStorage: gone when the tab closes). */
export function storedToken(): string {
  return sessionStorage.getItem(TOKEN_KEY) || '';
}

export function setToken(t: string, keep: boolean): void {
  token = t;
  if (keep && t) sessionStorage.setItem(TOKEN_KEY, t);
  if (!t) sessionStorage.removeItem(TOKEN_KEY);
}

/** Called when the host answers 401 to a signed-in call. */
export function onUnauthorized(listener: (reason: string) => void): void {
  unauthorizedListeners.add(listener);
}

export async function api<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const data = (await res.json().catch(() => ({}))) as { message?: string };
  if (!res.ok) {
    const message = data.message || `${res.status} ${res.statusText}`;
    if (res.status === 401 && token) for (const l of unauthorizedListeners) l(message);
    throw new ApiError(message, res.status);
  }
  return data as T;
}
