// What the dashboard browser tests share: Debian `chromium` driven by playwright-core, and a
// board's clock simulated by the unchanged clock statechart (rules/clock.machine.ts) on a
// shared SimulatedClock, its outputs journaled as clock events in a JournalPorts over a journal
// in memory (host/app/journal-boards.fixture.ts JournalBoards).
//
// Hall time is exact: hall time `ms` is UTC `t0Utc + ms` for the clocks, the API and (with
// Playwright's clock pinned) the page, so what the page computes between events can be
// compared with what the clock itself shows at that instant.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createActor, type Actor, type SimulatedClock } from 'xstate';
import { chromium, type Browser, type Page } from 'playwright-core';
import { clockMachine, type ClockInput, type ClockOutput } from '../rules/clock.machine.ts';
import { readClock } from '../rules/clock-reading.ts';
import { formatClockTime } from '../rules/display-format.ts';
import { create } from '@bufbuild/protobuf';
import { ClockEventSchema } from '../protocol/gen/chessclock_pb.ts';
import type { Side, TimeControl } from '../protocol/time-control.ts';
import { clockEventBody } from '../firmware-ts/host-link.ts';
import { journalInput } from '../host/clocks/clock-event.ts';
import type { JournalBoards } from '../host/app/journal-boards.fixture.ts';
import type { ClockEventRecord } from '../host/app/ports.ts';

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
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** A table row as a page shows it: its attributes, each cell's text, and the cells named by `data-field`. */
export interface ShownRow {
  readonly attrs: Record<string, string>;
  readonly cells: string[];
  readonly fields: Record<string, string>;
}

/** The rows `selector` finds in the page, read as the reader sees them (the print report and the standings page tests). */
export function tableRows(page: Page, selector: string): Promise<ShownRow[]> {
  return page.$$eval(selector, (trs) =>
    trs.map((tr) => ({
      attrs: Object.fromEntries(Array.from(tr.attributes).map((a) => [a.name, a.value])),
      cells: Array.from(tr.children).map((c) => (c.textContent ?? '').trim()),
      fields: Object.fromEntries(Array.from(tr.querySelectorAll('[data-field]')).map((c) => [c.getAttribute('data-field')!, (c.textContent ?? '').trim()])),
    })),
  );
}

/** One board's clock: the real statechart, its outputs journaled as clock events. */
export class SimulatedBoard {
  readonly actor: Actor<typeof clockMachine>;
  private seq = 0;
  constructor(
    readonly host: JournalBoards,
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

  /** Journals an output as the real clock and host do: the clock's ClockEvent (host-link.ts), then the host's row (clock-event.ts). */
  private journal(out: ClockOutput): void {
    const state = this.actor.getSnapshot().context.clock;
    const r = readClock(state, out.at);
    const body = clockEventBody(out, r.status, { white: r.white, black: r.black }, state);
    if (!body || body.case !== 'clockEvent') return;
    const ev = create(ClockEventSchema, body.value as Parameters<typeof create<typeof ClockEventSchema>>[1]);
    const row = journalInput(this.clockId, 1, this.seq + 1, ev, { utcMs: this.t0Utc + out.at, uncertaintyMs: 1 });
    this.report({
      type: row.type,
      side: row.side ?? null,
      move: row.move ?? null,
      whiteMs: row.whiteMs,
      blackMs: row.blackMs,
      monoMs: row.monoMs,
      detail: row.detail ?? null,
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
