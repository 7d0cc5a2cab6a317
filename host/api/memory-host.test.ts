// The in-memory host ports (tests, the API benchmark, the dashboard demo) follow the same
// contract as the journal-backed host for the issue-6 board fields.
import { describe, expect, it } from 'vitest';
import { MemoryHost } from './memory-host.ts';
import type { ClockEventRecord } from './host-ports.ts';
import { presetTimeControl } from '../../protocol/time-control.ts';

const FINAL = 'Slovenian Final 2025/26';
let seq = 0;
function ev(type: string, extra: Partial<ClockEventRecord> = {}): ClockEventRecord {
  seq++;
  return { clockId: 'clk-1', bootId: 'b', seq, event: FINAL, round: 1, board: 1, type, side: null, move: null, whiteMs: 5_430_000, blackMs: 5_430_000, monoMs: seq, utcMs: 10_000 + seq, ...extra };
}

describe('MemoryHost: board views for the dashboard (issue 6 contract)', () => {
  it('FIDE Laws 6.7.1: a board with a default time shows who has arrived and when the game started', () => {
    seq = 0;
    const host = new MemoryHost();
    host.addBoard({ id: 'final-1', event: FINAL, round: 1, board: 1, clockId: 'clk-1', timeControl: '40/5400+30:900+30', defaultTimeMs: 1_800_000 });
    expect(host.board('final-1')).toMatchObject({ defaultTimeMs: 1_800_000, timeControl: '40/5400+30:900+30', live: null });
    host.ingest(ev('arrived', { side: 'black' }));
    host.ingest(ev('started'));
    expect(host.board('final-1')!.live).toMatchObject({ status: 'running', present: { white: false, black: true }, startedAtUtcMs: 10_002 });
  });

  it('FIDE Laws 6.10.1: periods follow the board\'s control read back from its PGN form (move 40 ends period 1)', () => {
    seq = 0;
    const host = new MemoryHost();
    host.addBoard({ id: 'final-1', event: FINAL, round: 1, board: 1, clockId: 'clk-1', timeControl: '40/5400+30:900+30' });
    host.ingest(ev('started'));
    for (let m = 1; m <= 40; m++) host.ingest(ev('moved', { side: 'white', move: m }));
    expect(host.board('final-1')!.live!.period).toEqual({ white: 2, black: 1 });
    expect(host.board('final-1')!.live!.present).toEqual({ white: true, black: true }); // no default time: not tracked
    expect(host.board('final-1')!.defaultTimeMs).toBeNull();
  });

  it('a configure (next game) takes the new control\'s default time; the match view is set and cleared', async () => {
    const host = new MemoryHost();
    host.addBoard({ id: 'final-3', event: FINAL, round: 1, board: 3, clockId: 'clk-3', timeControl: '900+10' });
    const match = { id: 'm', whiteScore: 1, blackScore: 1, stage: 'rapid', decided: false, winner: null, decidedBy: null };
    expect(host.setMatch('final-3', match).match).toEqual(match);
    const out = await host.execute({ type: 'configure', boardId: 'final-3', timeControl: presetTimeControl('armageddon', { defaultTime: 0 }) }, { arbiter: 'Chief' });
    expect(out).toMatchObject({ ok: true, board: { timeControl: 'W360-B300', defaultTimeMs: 0 } });
    expect(host.setMatch('final-3', null).match).toBeUndefined();
  });

  it('refuses a board whose time control cannot be read, naming the board and the token', () => {
    const host = new MemoryHost();
    expect(() => host.addBoard({ id: 'x-1', event: FINAL, round: 1, board: 1, timeControl: '40/5400+x' })).toThrow(/board "x-1": timeControl "40\/5400\+x": bad increment "x"/);
  });
});
