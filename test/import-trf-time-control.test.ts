// A pairing program's TRF without tag 222 (the encoded time control; TRF-2026, which TRF16 files and
// many programs leave out) through `chessclock tournament import-trf` (docs/tournament.md "An event
// with an outside pairing program"): the whole event takes `--time-control SPEC` (through the one
// time-control reader), refused when it contradicts a tag 222; a round (--next-round, --host) carries
// no time control, so it needs no tag 222. The real command, and a real host for --host.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHost } from '../host/start-host.ts';
import { Journal } from '../host/store/journal.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { formatTimeControl, readTimeControlSpec } from '../protocol/time-control.ts';
import { registrationTrf } from '../host/adapters/exports/trf-event.ts';
import { addRoundToTrf, ARBITER, stoppedClock, SWISS, swissBeforeRound1 } from '../host/app/next-round.fixture.ts';
import { chessclock } from './pairing-program.fixture.ts';

const TOKEN = 'import-trf-time-control-token-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'import-trf-tc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function beforeRound1Hall() {
  const raw = swissBeforeRound1();
  delete (raw.events[0] as { pairingEngine?: unknown }).pairingEngine;
  return parseTournament(raw);
}

/** The 7-player Swiss's TRF with round 1 paired, as a program writes it, with no tag 222. */
function round1WithoutTag222(): string {
  const journal = new Journal(':memory:');
  try {
    const trf = addRoundToTrf(
      registrationTrf(journal, beforeRound1Hall(), SWISS, 'white'),
      0,
      [
        [1, 4],
        [5, 2],
        [3, 6],
      ],
      7,
    );
    const without = trf.replace(/\r\n222 [^\r]*/, '');
    expect(without).not.toBe(trf);
    return without;
  } finally {
    journal.close();
  }
}

describe('a TRF without tag 222 (time control): --time-control where a time control is needed, none where a round is all', () => {
  it('--id: refused naming --time-control without it; with it the tournament file loads with that time control; a contradicting 222 refused', {
    timeout: 60_000,
  }, async () => {
    const file = join(dir, 'no-222.trf');
    writeFileSync(file, round1WithoutTag222());
    const with222 = join(dir, 'with-222.trf');
    writeFileSync(with222, round1WithoutTag222().replace('\r\nXXR ', '\r\n222 900+10\r\nXXR '));
    const [missing, given, contradicts, badSpec] = await Promise.all([
      chessclock(['tournament', 'import-trf', file, '--id', 'open']),
      chessclock(['tournament', 'import-trf', file, '--id', 'open', '--time-control', '5400+30']),
      chessclock(['tournament', 'import-trf', with222, '--id', 'open', '--time-control', 'classical']),
      chessclock(['tournament', 'import-trf', file, '--id', 'open', '--time-control', '90 minutes']),
    ]);
    expect([missing.status, missing.stderr]).toEqual([
      1,
      `chessclock tournament import-trf: ${file}: the TRF has no tag 222 (time control): give it with --time-control SPEC (a preset: classical, rapid, blitz …; or a PGN field: 5400+30)\n`,
    ]);
    expect([given.status, given.stderr]).toEqual([0, '']);
    const event = parseTournament(JSON.parse(given.stdout)).events[0];
    expect(formatTimeControl(event.timeControl)).toBe(formatTimeControl(readTimeControlSpec('5400+30').timeControl));
    expect(event.rounds[0].boards.map((b) => [b.white, b.black])).toEqual([
      [1, 4],
      [5, 2],
      [3, 6],
    ]);
    expect(contradicts.status).toBe(1);
    expect(contradicts.stderr).toMatch(/the TRF's tag 222 "900\+10" and --time-control \(.+\) disagree: leave out --time-control, or correct the TRF\n$/);
    expect(badSpec.status).toBe(2);
    expect(badSpec.stderr).toMatch(/^chessclock tournament import-trf: --time-control "90 minutes": /);
  });

  it('--next-round and --host: the round is read without tag 222 (the event keeps its own time control); --time-control there is bad usage', {
    timeout: 60_000,
  }, async () => {
    const file = join(dir, 'round1-no-222.trf');
    writeFileSync(file, round1WithoutTag222());
    const running = await startHost({
      journal: new Journal(':memory:'),
      hall: beforeRound1Hall(),
      clock: stoppedClock(),
      http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [{ arbiter: ARBITER, token: TOKEN }], dashboard: false },
      log: () => undefined,
    });
    try {
      const [printed, loaded, usage] = await Promise.all([
        chessclock(['tournament', 'import-trf', file, '--next-round']),
        chessclock(['tournament', 'import-trf', file, '--next-round', '--host', running.url!, '--event', SWISS], { CHESSCLOCK_TOKEN: TOKEN }),
        chessclock(['tournament', 'import-trf', file, '--next-round', '--time-control', 'rapid']),
      ]);
      expect([printed.status, printed.stderr]).toEqual([0, '']);
      expect(JSON.parse(printed.stdout)).toMatchObject({ number: 1, byes: [{ player: 7, kind: 'U' }] });
      expect([loaded.status, loaded.stderr]).toEqual([0, '']);
      expect(loaded.stdout).toMatch(new RegExp(`^${SWISS} round 1: proposed from the TRF`));
      expect([usage.status, usage.stderr]).toEqual([
        2,
        "chessclock tournament import-trf: --time-control goes with --id: a round carries no time control (the event's own applies), so --next-round needs no tag 222\n",
      ]);
    } finally {
      await running.close();
    }
  });
});
