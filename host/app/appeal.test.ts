// The regulations' appeal windows (docs/regulations.md), shown with each confirmed result and
// enforced: after the deadline the result is final and a correction is refused.
//  - Slovenian final 2007: "appeals within 30 minutes of the dispute": from the arbiter's decision
//    (the confirmation; a correction is a new decision with a new window).
//  - Ivanovo 2018: "within 15 minutes after the round ends": from the end of the round's last game,
//    once every result of the round is confirmed.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../store/journal.ts';
import { loadTournamentFile } from '../domain/tournament-file.ts';
import { appealDeadline } from '../domain/appeal.ts';
import { Director } from './director.ts';
import { JournalPorts, boardIdOf } from './journal-ports.ts';

const MIN = 60_000;
const fixture = (name: string) => loadTournamentFile(fileURLToPath(new URL(`../domain/fixtures/${name}`, import.meta.url)));
const journals: Journal[] = [];
afterEach(() => journals.splice(0).forEach((j) => j.close()));

function setup(file: string, event: string, start: number) {
  const hall = fixture(file);
  const journal = new Journal(':memory:');
  journals.push(journal);
  new Director(journal, hall).openRound(event, 1, start);
  const now = { ms: start };
  const ports = new JournalPorts({ journal, hall, nowUtcMs: () => now.ms });
  return { ports, journal, now, hall };
}

describe('appeal windows of the regulations', () => {
  it('Slovenian final: 30 minutes from the confirmation; a correction inside them starts a new window; after it the result is final and not corrected', async () => {
    const START = Date.UTC(2007, 7, 16, 14, 0);
    const { ports, now } = setup('slovenian-final-2007.json', 'slo-w-2007', START);
    const id = boardIdOf('slo-w-2007', 1);
    const arbiter = { arbiter: 'Ana Srebrnič' };
    now.ms = START + 4 * 60 * MIN;
    expect((await ports.execute({ type: 'result', boardId: id, result: '1-0' }, arbiter)).ok).toBe(true);
    expect(ports.board(id)).toMatchObject({ resultConfirmed: false, appealUntilUtcMs: null, resultFinal: false });
    now.ms += MIN;
    const confirmedAt = now.ms;
    expect((await ports.execute({ type: 'confirm-result', boardId: id }, arbiter)).ok).toBe(true);
    expect(ports.board(id)).toMatchObject({ resultConfirmed: true, appealUntilUtcMs: confirmedAt + 30 * MIN, resultFinal: false });

    // An appeal upheld 29 minutes later: the arbiter corrects and confirms; a new 30-minute window.
    now.ms = confirmedAt + 29 * MIN;
    expect((await ports.execute({ type: 'result', boardId: id, result: '1/2-1/2', reason: 'appeal upheld: the flag fell after the mate' }, arbiter)).ok).toBe(
      true,
    );
    expect((await ports.execute({ type: 'confirm-result', boardId: id }, arbiter)).ok).toBe(true);
    const second = now.ms;
    expect(ports.board(id)).toMatchObject({ result: '1/2-1/2', appealUntilUtcMs: second + 30 * MIN });

    now.ms = second + 30 * MIN; // the deadline itself: final
    expect(ports.board(id)).toMatchObject({ resultFinal: true });
    const late = await ports.execute({ type: 'result', boardId: id, result: '0-1', reason: 'too late' }, arbiter);
    expect(late).toMatchObject({ ok: false, status: 409 });
    expect(!late.ok && late.reason).toMatch(
      /the result 1\/2-1\/2 is final: the appeal time \(30 minutes after the arbiter's decision\) ended at 2007-08-16T19:00:00.000Z/,
    );
    expect(ports.board(id)!.result).toBe('1/2-1/2');
  });

  it("Ivanovo: 15 minutes after the round ends — no deadline until every result of the round is confirmed, then from the last game's end", async () => {
    const START = Date.UTC(2018, 1, 13, 12, 0);
    const { ports, now, journal } = setup('ivanovo-white-rook-2018.json', 'ivanovo-2018', START);
    const arbiter = { arbiter: 'Главный судья' };
    const boards = journal.gamesByRound('ivanovo-2018', 1);
    for (const [i, g] of boards.entries()) {
      now.ms = START + 60 * MIN + i * 5 * MIN; // the last game ends 35 minutes after the first
      const id = boardIdOf('ivanovo-2018', g.board);
      expect((await ports.execute({ type: 'result', boardId: id, result: '1-0' }, arbiter)).ok).toBe(true);
      expect((await ports.execute({ type: 'confirm-result', boardId: id }, arbiter)).ok).toBe(true);
      if (i < boards.length - 1) expect(ports.board(id)).toMatchObject({ resultConfirmed: true, appealUntilUtcMs: null, resultFinal: false });
    }
    const lastEnd = START + 60 * MIN + 7 * 5 * MIN;
    for (const g of boards) expect(ports.board(boardIdOf('ivanovo-2018', g.board))).toMatchObject({ appealUntilUtcMs: lastEnd + 15 * MIN });
    now.ms = lastEnd + 15 * MIN - 1;
    expect(ports.board(boardIdOf('ivanovo-2018', 1))!.resultFinal).toBe(false);
    now.ms = lastEnd + 15 * MIN;
    expect(ports.board(boardIdOf('ivanovo-2018', 1))!.resultFinal).toBe(true);
    const late = await ports.execute({ type: 'result', boardId: boardIdOf('ivanovo-2018', 1), result: '0-1', reason: 'late appeal' }, arbiter);
    expect(late).toMatchObject({ ok: false, status: 409 });
    expect(!late.ok && late.reason).toMatch(/is final: the appeal time \(15 minutes after the round\) ended/);
  });

  it('the deadline from its parts (appeal.ts)', () => {
    const g = (confirmedUtcMs: number | null, endedUtcMs: number | null = null) => ({ confirmedUtcMs, endedUtcMs, reportedUtcMs: confirmedUtcMs });
    expect(appealDeadline({ minutes: 30, from: 'result' }, g(1000), [])).toBe(1000 + 30 * MIN);
    expect(appealDeadline({ minutes: 30, from: 'result' }, g(null), [])).toBeNull();
    expect(appealDeadline({ minutes: 15, from: 'round-end' }, g(1000, 900), [g(1000, 900), g(null)])).toBeNull();
    expect(appealDeadline({ minutes: 15, from: 'round-end' }, g(1000, 900), [g(1000, 900), g(5000, 4000)])).toBe(4000 + 15 * MIN);
  });
});
