// The in-memory host ports (tests, the API benchmark) follow the same
// contract as the journal-backed host for the issue-6 board fields.
import { describe, expect, it } from 'vitest';
import { MemoryPorts } from './memory-ports.ts';
import type { ClockEventRecord } from './ports.ts';
import { presetTimeControl } from '../../protocol/time-control.ts';
import { journalInput } from '../clocks/clock-event.ts';
import { Boot } from '../clocks/journaled-clock.fixture.ts';

const FINAL = 'Slovenian Final 2025/26';
let seq = 0;
function ev(type: string, extra: Partial<ClockEventRecord> = {}): ClockEventRecord {
  seq++;
  return { clockId: 'clk-1', bootId: 'b', seq, event: FINAL, round: 1, board: 1, type, side: null, move: null, whiteMs: 5_430_000, blackMs: 5_430_000, monoMs: seq, utcMs: 10_000 + seq, ...extra };
}

describe('MemoryPorts: board views for the dashboard (issue 6 contract)', () => {
  it('FIDE Laws 6.7.1: a board with a default time shows who has arrived and when the game started', () => {
    seq = 0;
    const host = new MemoryPorts();
    host.addBoard({ id: 'final-1', event: FINAL, round: 1, board: 1, clockId: 'clk-1', timeControl: '40/5400+30:900+30', defaultTimeMs: 1_800_000 });
    expect(host.board('final-1')).toMatchObject({ defaultTimeMs: 1_800_000, timeControl: '40/5400+30:900+30', live: null });
    host.ingest(ev('arrived', { side: 'black' }));
    host.ingest(ev('started'));
    expect(host.board('final-1')!.live).toMatchObject({ status: 'running', present: { white: false, black: true }, startedAtUtcMs: 10_002 });
  });

  it('FIDE Laws 6.10.1: periods follow the board\'s control read back from its PGN form (move 40 ends period 1)', () => {
    const host = new MemoryPorts();
    host.addBoard({ id: 'final-1', event: FINAL, round: 1, board: 1, clockId: 'clk-1', timeControl: '40/5400+30:900+30' });
    // The board's clock: the real statechart, each event as the host journals it.
    let n = 0;
    const clock = new Boot('clk-1', 1, presetTimeControl('classical'), 1_000, (b, e) => {
      const row = journalInput(b.clockId, b.bootId, ++b.seq, e, { utcMs: 10_000 + ++n, uncertaintyMs: 1 });
      host.ingest({ ...row, side: row.side ?? null, move: row.move ?? null, detail: row.detail ?? null, event: FINAL, round: 1, board: 1 });
    });
    clock.send({ type: 'START', at: 1_000 });
    for (let m = 1; m <= 40; m++) {
      clock.send({ type: 'PRESS', side: 'white', at: clock.now + 30_000 });
      if (m < 40) clock.send({ type: 'PRESS', side: 'black', at: clock.now + 30_000 });
    }
    clock.actor.stop();
    // White completed move 40: period 2; Black, on move 40, still plays period 1.
    expect(host.board('final-1')!.live!.period).toEqual({ white: 2, black: 1 });
    expect(host.board('final-1')!.live!.present).toEqual({ white: true, black: true }); // no default time: not tracked
    expect(host.board('final-1')!.defaultTimeMs).toBeNull();
  });

  it('a configure (next game) takes the new control\'s default time; the match view is set and cleared', async () => {
    const host = new MemoryPorts();
    host.addBoard({ id: 'final-3', event: FINAL, round: 1, board: 3, clockId: 'clk-3', timeControl: '900+10' });
    const match = { id: 'm', whiteScore: 1, blackScore: 1, stage: 'rapid', decided: false, winner: null, decidedBy: null };
    expect(host.setMatch('final-3', match).match).toEqual(match);
    const out = await host.execute({ type: 'configure', boardId: 'final-3', timeControl: presetTimeControl('armageddon', { defaultTime: 0 }) }, { arbiter: 'Chief' });
    expect(out).toMatchObject({ ok: true, board: { timeControl: 'W360-B300', defaultTimeMs: 0 } });
    expect(host.setMatch('final-3', null).match).toBeUndefined();
  });

  it('refuses a board whose time control cannot be read, naming the board and the token', () => {
    const host = new MemoryPorts();
    expect(() => host.addBoard({ id: 'x-1', event: FINAL, round: 1, board: 1, timeControl: '40/5400+x' })).toThrow(/board "x-1": timeControl "40\/5400\+x": bad increment "x"/);
  });
});

// Issue 11: a result closes the game, in the in-memory host as in the journal-backed one
// (host/app/result-rules.ts; docs/api.md, "A game with a result").
describe('MemoryPorts: a result closes the game', () => {
  const CLOCK_COMMANDS = [
    { type: 'start' }, { type: 'pause' }, { type: 'resume' }, { type: 'adjust', side: 'white', ms: 60_000 }, { type: 'penalty', side: 'black' },
    { type: 'set-moves', side: 'white', moves: 3 }, { type: 'increment', ms: 5000 }, { type: 'takeback' }, { type: 'reinstate' }, { type: 'arrive', side: 'black' },
  ] as const;

  it('FIDE Laws 5.1 / 5.2: a confirmed game takes no time command (409 with the board, the result and the correction), and nothing is forwarded to the clock', async () => {
    seq = 0;
    const host = new MemoryPorts();
    const forwarded: string[] = [];
    host.forward = (c) => forwarded.push(c.type);
    host.addBoard({ id: 'final-1', event: FINAL, round: 1, board: 1, clockId: 'clk-1', timeControl: '40/5400+30:900+30' });
    host.ingest(ev('started'));
    host.ingest(ev('moved', { side: 'white', move: 1 }));
    const arbiter = { arbiter: 'Chief' };
    expect(await host.execute({ type: 'result', boardId: 'final-1', result: '1-0' }, arbiter)).toMatchObject({ ok: true, board: { result: '1-0', live: { status: 'finished' } } });
    expect(await host.execute({ type: 'confirm-result', boardId: 'final-1' }, arbiter)).toMatchObject({ ok: true });
    for (const c of CLOCK_COMMANDS) {
      const out = await host.execute({ ...c, boardId: 'final-1' } as Parameters<MemoryPorts['execute']>[0], arbiter);
      expect(out, c.type).toMatchObject({ ok: false, status: 409 });
      expect((out as { reason: string }).reason, c.type).toMatch(
        /^board 1 of Slovenian Final 2025\/26 round 1 has a result: the game is over \(1-0, confirmed by Chief\): .* correct the result with a reason \(PUT \/api\/boards\/final-1\/result with "result" and "reason"\)$/,
      );
    }
    expect(forwarded).toEqual([]);
    expect(host.commands.filter((c) => c.outcome === 'rejected')).toHaveLength(CLOCK_COMMANDS.length);
    // A clock event arriving afterwards does not make the game run again.
    host.ingest(ev('moved', { side: 'black', move: 1 }));
    expect(host.board('final-1')!.live!.status).toBe('finished');
  });

  it('FIDE Laws 8.7: a confirmed result is corrected only with a reason, journaled with it; a confirmation names only a result someone reported', async () => {
    const host = new MemoryPorts();
    host.addBoard({ id: 'final-2', event: FINAL, round: 1, board: 2, clockId: 'clk-2', timeControl: '900+10' });
    const arbiter = { arbiter: 'Chief' };
    await host.execute({ type: 'result', boardId: 'final-2', result: '1-0' }, arbiter);
    // Before confirmation the arbiter's entry is itself the check: no reason needed.
    expect(await host.execute({ type: 'result', boardId: 'final-2', result: '0-1' }, arbiter)).toMatchObject({ ok: true });
    await host.execute({ type: 'confirm-result', boardId: 'final-2' }, arbiter);
    expect(await host.execute({ type: 'result', boardId: 'final-2', result: '1/2-1/2' }, arbiter)).toEqual({
      ok: false, status: 422, reason: `board 2 of ${FINAL} round 1: 0-1, confirmed by Chief: a correction of a confirmed result must say why (send "reason"; it is journaled with the correction)`,
    });
    expect(await host.execute({ type: 'result', boardId: 'final-2', result: '1/2-1/2', reason: 'draw agreed, scoresheets signed' }, arbiter)).toMatchObject({ ok: true, board: { result: '1/2-1/2', resultConfirmed: false } });
    expect(host.commands.at(-1)).toMatchObject({ command: { reason: 'draw agreed, scoresheets signed' }, arbiter: 'Chief', outcome: 'applied', previous: '0-1' });
    expect(await host.execute({ type: 'confirm-result', boardId: 'final-2', result: '1-0' }, arbiter)).toMatchObject({ ok: false, status: 409 });
    expect(host.results(1)[0]).toMatchObject({ result: '1/2-1/2', conflicts: [] });
  });
});
