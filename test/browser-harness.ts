// What the dashboard browser tests share: Debian `chromium` driven by playwright-core, and a
// board's clock simulated by the unchanged clock statechart (rules/clock.machine.ts) on a
// shared SimulatedClock, its outputs journaled in a MemoryHost as clock events.
//
// Hall time is exact: hall time `ms` is UTC `t0Utc + ms` for the clocks, the API and (with
// Playwright's clock pinned) the page, so what the page computes between events can be
// compared with what the clock itself shows at that instant.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createActor, type Actor, type SimulatedClock } from 'xstate';
import { chromium, type Browser } from 'playwright-core';
import { clockMachine, readClock, type ClockInput, type ClockOutput } from '../rules/clock.machine.ts';
import { formatClockTime } from '../rules/display-format.ts';
import type { Side, TimeControl } from '../protocol/time-control.ts';
import type { MemoryHost } from '../host/api/memory-host.ts';
import type { ClockEventRecord } from '../host/api/host-ports.ts';

export const CHROMIUM = '/usr/bin/chromium';
/** Skipped only locally without the Debian package; under CI a missing browser fails the test. */
export const SKIP_BROWSER = !existsSync(CHROMIUM) && !process.env.CI;
export const ARTIFACTS = join(process.cwd(), 'artifacts');

export function skipMessage(what: string): void {
  if (SKIP_BROWSER) console.warn(`skipping ${what}: install the Debian package \`chromium\` (apt-get install chromium)`);
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/** One board's clock: the real statechart, its outputs journaled as clock events. */
export class SimulatedBoard {
  readonly actor: Actor<typeof clockMachine>;
  private seq = 0;
  constructor(
    readonly host: MemoryHost,
    readonly hall: SimulatedClock,
    readonly t0Utc: number,
    readonly clockId: string,
    readonly addr: { event: string; round: number; board: number },
    timeControl: TimeControl,
  ) {
    this.actor = createActor(clockMachine, { input: { timeControl }, clock: hall });
    this.actor.on('*', (out: ClockOutput) => this.journal(out));
    this.actor.start();
  }

  private journal(out: ClockOutput): void {
    if (out.type === 'rejected' || out.type === 'new-game') return;
    const times = 'white' in out ? { whiteMs: out.white, blackMs: out.black } : { whiteMs: null, blackMs: null };
    // As the host's bridge names them (host/bridge/clock-event.ts).
    const type = out.type === 'move' ? 'moved' : out.type === 'takeback' ? 'taken-back' : out.type;
    this.report({
      type,
      side: 'side' in out ? out.side : null,
      // As the host's bridge journals them (host/bridge/clock-event.ts): a move's number, a
      // corrected counter with the 0-based period it leaves the side in.
      move: out.type === 'move' ? out.move : out.type === 'moves-set' ? out.moves : out.type === 'takeback' ? out.move : null,
      ...times,
      monoMs: out.at,
      ...(out.type === 'moves-set' ? { detail: { moves: out.moves, period: out.period } } : {}),
      ...(out.type === 'takeback' ? { detail: { period: readClock(this.actor.getSnapshot().context.clock, out.at).period[out.side], illegalMoves: out.illegalMoves } } : {}),
      ...(out.type === 'increment-set' ? { detail: { ms: out.ms } } : {}),
    });
  }

  /** Journals one event as this clock reports it (next sequence number, hall time → UTC). */
  report(e: Pick<ClockEventRecord, 'type' | 'side' | 'move' | 'whiteMs' | 'blackMs' | 'monoMs' | 'detail'>): void {
    this.host.ingest({ clockId: this.clockId, bootId: 'boot-1', seq: ++this.seq, ...this.addr, ...e, utcMs: this.t0Utc + e.monoMs });
  }

  send(input: ClockInput): void {
    this.actor.send(input);
  }

  /** What the clock itself shows now for `side`. */
  shows(side: Side): string {
    return formatClockTime(readClock(this.actor.getSnapshot().context.clock, this.hall.now())[side]);
  }
}
