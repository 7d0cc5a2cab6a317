// The life of one clock's line on the host, as an XState v5 machine (one actor per clock:
// docs/architecture.md rule 9). It only decides WHEN to open, greet, give up and retry; the
// effects (opening a serial port, creating the Link, journaling) are the actors and actions
// that `clock-session.ts` provides with `machine.provide(...)`, and tests replace.
//
//   opening ──► handshaking ──► online ──(line lost)──► disconnected ──► backoff ──► reopening ─┐
//      │              │                                                     ▲          │         │
//      └──(fails)─────┴──────────────────(fails)────────────────────────────┘◄─(fails)─┘         │
//                     ▲──────────────────────────────────────────────────────────────────────────┘
//
// A clock that re-greets on the same line (it rebooted, or lost our session) stays online:
// the Link handles that itself. A line that closes or stops acknowledging (unplugged USB
// hub, a clock that went silent for the session timeout) is reopened after a backoff that
// doubles per failed attempt up to a ceiling, and resets once a handshake succeeds — a
// hall with a flaky hub must not be hammered, a clock plugged back in must come back soon.
// The delays run on the actor's clock (`createActor(…, { clock })`), so tests drive them.
import { assign, fromPromise, setup } from 'xstate';

export interface BackoffOptions {
  /** First retry delay. */
  readonly initialMs: number;
  /** Ceiling of the doubling. */
  readonly maxMs: number;
}

export const BACKOFF_DEFAULTS: BackoffOptions = { initialMs: 250, maxMs: 10_000 };

export interface SessionContext {
  readonly backoff: BackoffOptions;
  /** Failed attempts since the last successful handshake. */
  readonly attempts: number;
  /** Why the last attempt or line failed (shown on the dashboard / log). */
  readonly lastError: string | null;
  /** Successful handshakes so far (1 = first connection; more = reconnects). */
  readonly connections: number;
}

export type SessionEvent = { type: 'LINE_LOST'; reason: string } | { type: 'STOP' };

/** The delay before reconnect attempt `attempts` (1-based): initial·2^(n−1), capped. */
export function backoffDelayMs(backoff: BackoffOptions, attempts: number): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, attempts - 1));
}

const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as { backoff?: BackoffOptions },
  },
  actors: {
    /** Opens the line (serial port, pty, in-memory end). Provided by the session. */
    openLine: fromPromise<void>(async () => {
      throw new Error('sessionMachine: provide the "openLine" actor');
    }),
    /** Starts a host Link on the open line; resolves when the clock's Hello was accepted. */
    handshake: fromPromise<void>(async () => {
      throw new Error('sessionMachine: provide the "handshake" actor');
    }),
  },
  actions: {
    /** Releases the line and its Link (provided: closes the port). */
    releaseLine: () => {},
    /** The clock is online (provided: journal its handshake, configure its game). */
    wentOnline: () => {},
    /** The clock went offline (provided: log it). */
    wentOffline: () => {},
  },
  delays: {
    backoff: ({ context }) => backoffDelayMs(context.backoff, context.attempts),
  },
}).createMachine({
  id: 'clockSession',
  context: ({ input }) => ({ backoff: input.backoff ?? BACKOFF_DEFAULTS, attempts: 0, lastError: null, connections: 0 }),
  initial: 'opening',
  on: { STOP: '.stopped' },
  states: {
    opening: {
      invoke: {
        src: 'openLine',
        onDone: 'handshaking',
        onError: { target: 'backoff', actions: assign({ lastError: ({ event }) => reason(event.error) }) },
      },
    },
    handshaking: {
      invoke: {
        src: 'handshake',
        onDone: { target: 'online', actions: assign({ attempts: 0, lastError: null, connections: ({ context }) => context.connections + 1 }) },
        onError: { target: 'backoff', actions: assign({ lastError: ({ event }) => reason(event.error) }) },
      },
      on: { LINE_LOST: { target: 'backoff', actions: assign({ lastError: ({ event }) => event.reason }) } },
    },
    online: {
      entry: 'wentOnline',
      on: { LINE_LOST: { target: 'disconnected', actions: assign({ lastError: ({ event }) => event.reason }) } },
    },
    disconnected: {
      entry: 'wentOffline',
      always: 'backoff',
    },
    backoff: {
      entry: ['releaseLine', assign({ attempts: ({ context }) => context.attempts + 1 })],
      after: { backoff: 'reopening' },
    },
    reopening: {
      invoke: {
        src: 'openLine',
        onDone: 'handshaking',
        onError: { target: 'backoff', actions: assign({ lastError: ({ event }) => reason(event.error) }) },
      },
    },
    stopped: {
      entry: 'releaseLine',
      type: 'final',
    },
  },
});

export type SessionStateName = 'opening' | 'handshaking' | 'online' | 'disconnected' | 'backoff' | 'reopening' | 'stopped';
