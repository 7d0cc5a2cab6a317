import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { presetTimeControl } from '../../protocol/time-control.ts';
import Database from 'better-sqlite3';
import { Journal, JournalError, type ClockEventInput } from './journal.ts';
import { journalSql } from './journal-sql.fixture.ts';
import { SCHEMA_V1, SCHEMA_VERSION } from './schema.ts';

let dir: string;
let open: Journal[] = [];
const T0 = Date.UTC(2007, 7, 16, 14, 0, 0); // 16:00 CEST, Slovenian final round 1

function journal(name = 'clocks.db'): Journal {
  const j = new Journal(join(dir, name));
  open.push(j);
  return j;
}

function ev(seq: number, over: Partial<ClockEventInput> = {}): ClockEventInput {
  return {
    clockId: 'C1',
    bootId: 'b1',
    seq,
    type: 'moved',
    side: seq % 2 ? 'white' : 'black',
    move: Math.ceil(seq / 2),
    whiteMs: 5_400_000 - seq * 1000,
    blackMs: 5_400_000 - seq * 900,
    monoMs: 10_000 + seq * 1000,
    utcMs: T0 + seq * 1000,
    uncertaintyMs: 2,
    ...over,
  };
}

function newGame(j: Journal, over: Partial<Parameters<Journal['createGame']>[0]> = {}) {
  return j.createGame({
    event: 'slo-w-2007',
    round: 1,
    board: 1,
    kind: 'classical',
    white: 'Rožič, Vesna',
    black: 'Bajt, Indira',
    timeControl: presetTimeControl('classical'),
    clockId: 'C1',
    createdUtcMs: T0,
    ...over,
  });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'journal-'));
});
afterEach(() => {
  for (const j of open) j.close();
  open = [];
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs a crash fixture writing into the journal at `path`, SIGKILLs it once it has reported 300
 * events acknowledged (one seq per stdout line), and answers the seqs it reported.
 */
async function killedMidStream(fixtureFile: string, path: string): Promise<number[]> {
  const fixture = fileURLToPath(new URL(fixtureFile, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.split('\n').length > 300) child.kill('SIGKILL');
    });
    child.on('exit', () => resolve());
  });
  return out
    .split('\n')
    .filter((l) => /^\d+$/.test(l))
    .map(Number);
}
describe('journal', () => {
  it('uses WAL with synchronous=FULL so an acknowledged event survives a power cut', () => {
    const j = journal();
    expect(journalSql(j).pragma('journal_mode', { simple: true })).toBe('wal');
    expect(journalSql(j).pragma('synchronous', { simple: true })).toBe(2); // 2 = FULL
  });

  it('stores (clock, boot, seq) once: a retransmission is not a second press (idempotent append)', () => {
    const j = journal();
    const game = newGame(j);
    const first = j.append(ev(1));
    const again = j.append(ev(1));
    expect(first.isNew).toBe(true);
    expect(again).toEqual({ isNew: false, id: first.id });
    expect(j.eventsByGame(game.gameId)).toHaveLength(1);
    // The same seq after a reboot is a different event (new boot id).
    expect(j.append(ev(1, { bootId: 'b2', utcMs: T0 + 60_000 })).isNew).toBe(true);
    expect(j.eventsByGame(game.gameId)).toHaveLength(2);
    // Only new events reach the MQTT outbox.
    expect(j.pendingOutbox().filter((r) => r.kind === 'clock-event')).toHaveLength(2);
  });

  it('appendMany stores a batch in one transaction and reports duplicates inside it', () => {
    const j = journal();
    newGame(j);
    const results = j.appendMany([ev(1), ev(2), ev(2), ev(3)]);
    expect(results.map((r) => r.isNew)).toEqual([true, true, false, true]);
    expect(results[2].id).toBe(results[1].id);
  });

  it('a rejected batch leaves nothing behind (bad input names the field; nothing half-applied)', () => {
    const j = journal();
    const game = newGame(j);
    expect(() => j.appendMany([ev(1), ev(2, { whiteMs: -5 })])).toThrow(/clock event "C1"\/"b1"\/2: "whiteMs" must be a whole number/);
    expect(() => j.append(ev(3, { type: 'jump' as never }))).toThrow(JournalError);
    expect(j.eventsByGame(game.gameId)).toHaveLength(0);
    expect(j.pendingOutbox()).toHaveLength(0);
  });

  it('an event for a game the journal lacks is refused naming the event and the game (docs/architecture.md rule 10: errors say what and where)', () => {
    const j = journal();
    newGame(j);
    expect(() => j.append(ev(1, { gameId: 999 }))).toThrow(new JournalError('clock event "C1"/"b1"/1: no game 999', 'gameId'));
    expect(j.eventsAfter(0, 10)).toEqual([]);
  });

  it("fills game, event, round and board from the clock's current game", () => {
    const j = journal();
    const game = newGame(j, { round: 2, board: 3 });
    j.append(ev(1));
    const [row] = j.eventsByGame(game.gameId);
    expect(row).toMatchObject({ gameId: game.gameId, event: 'slo-w-2007', round: 2, board: 3, clockId: 'C1', seq: 1 });
    expect(row).toMatchObject({ whiteMs: 5_399_000, blackMs: 5_399_100, monoMs: 11_000, utcMs: T0 + 1000, uncertaintyMs: 2 });
  });

  it("orders a game's events boot by boot even when an old boot's outbox arrives after the reboot", () => {
    const j = journal();
    const game = newGame(j);
    j.append(ev(1));
    // The clock rebooted (power cut): boot b2 events arrive, then b1's seq 2 is recovered from its outbox.
    j.append(ev(1, { bootId: 'b2', utcMs: T0 + 120_000, monoMs: 500 }));
    j.append(ev(2, { utcMs: T0 + 2000 }));
    expect(j.eventsByGame(game.gameId).map((e) => `${e.bootId}:${e.seq}`)).toEqual(['b1:1', 'b1:2', 'b2:1']);
  });

  it('survives close and reopen: the host restarts on the same journal', () => {
    const path = join(dir, 'resume.db');
    const a = new Journal(path);
    const game = newGame(a);
    a.appendMany([ev(1), ev(2)]);
    a.close();
    const b = new Journal(path);
    open.push(b);
    expect(b.eventsByGame(game.gameId).map((e) => e.seq)).toEqual([1, 2]);
    expect(b.append(ev(2)).isNew).toBe(false); // the retransmission after the restart is still a duplicate
    expect(b.append(ev(3)).isNew).toBe(true);
    expect(b.currentGameForClock('C1')?.gameId).toBe(game.gameId);
  });

  it('keeps every acknowledged event when the host process is killed mid-stream (SIGKILL)', async () => {
    const path = join(dir, 'crash.db');
    const acknowledged = await killedMidStream('./crash-writer.fixture.ts', path);
    expect(acknowledged.length).toBeGreaterThanOrEqual(300);
    const j = new Journal(path);
    open.push(j);
    const stored = new Set((journalSql(j).prepare("SELECT seq FROM clock_events WHERE clock_id = 'clock-crash'").all() as { seq: number }[]).map((r) => r.seq));
    expect(acknowledged.filter((s) => !stored.has(s))).toEqual([]);
  });

  it('writer thread: keeps every event whose batch was answered durable when the process is killed mid-stream (SIGKILL), in the order sent', async () => {
    const path = join(dir, 'crash-thread.db');
    const acknowledged = await killedMidStream('./crash-writer-thread.fixture.ts', path);
    expect(acknowledged.length).toBeGreaterThanOrEqual(300);
    const j = new Journal(path);
    open.push(j);
    const rows = journalSql(j).prepare("SELECT id, seq FROM clock_events WHERE clock_id = 'clock-crash' ORDER BY id").all() as { id: number; seq: number }[];
    const stored = new Set(rows.map((r) => r.seq));
    expect(acknowledged.filter((s) => !stored.has(s))).toEqual([]);
    // Journal order is the order sent: seq 1, 2, 3, … with no gap, whatever the batches were.
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
  });

  describe('writer thread (appendInBackground with writerThread)', () => {
    function threaded(name = 'thread.db'): Journal {
      const j = new Journal(join(dir, name), { writerThread: true });
      open.push(j);
      return j;
    }
    const items = (events: ClockEventInput[], group?: unknown) => events.map((event) => ({ event, group }));

    it('answers the rows at once with their journal ids, shows them nowhere until the commit is answered, then stores exactly those rows', async () => {
      const j = threaded();
      const game = newGame(j);
      j.append(ev(1, { type: 'started', side: null, move: null }));
      const { results, durable } = j.appendInBackground(items([ev(2), ev(3)]));
      const rows = results.map((r) => (r instanceof Error ? r : r.row));
      expect(rows.map((r) => (r instanceof Error ? r.message : r?.id))).toEqual([2, 3]);
      // In flight: not durable yet, so not read anywhere on this thread; a second batch or a
      // direct append must wait (one batch at a time keeps journal order the order sent).
      expect(j.writing).toBe(true);
      expect(j.eventsByGame(game.gameId).map((e) => e.seq)).toEqual([1]);
      expect(j.eventsAfter(0, 10).map((e) => e.seq)).toEqual([1]);
      expect(() => j.appendInBackground(items([ev(4)]))).toThrow(/already being written/);
      expect(() => j.append(ev(4))).toThrow(/writer thread/);
      await durable;
      expect(j.writing).toBe(false);
      expect(j.eventsAfter(0, 10)).toEqual([j.eventsAfter(0, 1)[0], ...rows]);
      expect(j.storage.current.ok).toBe(true);
      // A resend of a stored event, and one repeated within a batch, are duplicates (not stored twice).
      const again = j.appendInBackground(items([ev(3), ev(4), ev(4)]));
      await again.durable;
      expect(again.results.map((r) => (r instanceof Error ? r.message : [r.isNew, r.id]))).toEqual([
        [false, 3],
        [true, 4],
        [false, 4],
      ]);
      expect(j.eventsByGame(game.gameId).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    });

    it("the writer thread's commits keep the read cache of games (they never write games); another process's write to games drops it from the next turn", async () => {
      const j = threaded();
      const game = newGame(j);
      const cached = j.getGame(game.gameId);
      await j.appendInBackground(items([ev(1, { type: 'started', side: null, move: null }), ev(2)])).durable;
      await new Promise((r) => setImmediate(r));
      expect(j.getGame(game.gameId)).toBe(cached); // the same frozen read: not read again
      const other = journal('thread.db');
      other.append(ev(3)); // another connection's clock event: games untouched
      await new Promise((r) => setImmediate(r));
      expect(j.getGame(game.gameId)).toBe(cached);
      other.reportResult(game.gameId, { result: '1-0', how: 'resignation', source: 'arbiter', arbiter: 'Ana Srebrnič', utcMs: T0 + 9 });
      await new Promise((r) => setImmediate(r));
      expect(j.getGame(game.gameId)).toMatchObject({ result: '1-0', reportedBy: 'arbiter:Ana Srebrnič' });
    });

    it("a start still being written counts as the game started (an arbiter's reconfigure is refused meanwhile)", async () => {
      const j = threaded();
      const game = newGame(j);
      const { durable } = j.appendInBackground(items([ev(1, { type: 'started', side: null, move: null })]));
      expect(j.gameStarted(game.gameId)).toBe(true);
      expect(() => j.reconfigureGame(game.gameId, { timeControl: presetTimeControl('rapid') })).toThrow(/has started/);
      await durable;
      expect(j.gameStarted(game.gameId)).toBe(true);
    });

    it("an event refused for its content leaves out its clock's later events of the batch; other clocks' go on", async () => {
      const j = threaded();
      newGame(j);
      const { results, durable } = j.appendInBackground([
        { event: ev(1), group: 'C1' },
        { event: { ...ev(1), clockId: 'C2', side: 'sideways' as never }, group: 'C2' },
        { event: { ...ev(2), clockId: 'C2' }, group: 'C2' },
        { event: ev(2), group: 'C1' },
      ]);
      await durable;
      expect(results.map((r) => (r instanceof Error ? r.message : 'ok'))).toEqual([
        'ok',
        expect.stringMatching(/"side" must be "white" or "black"/),
        expect.stringMatching(/an earlier event of the same clock in the batch was refused/),
        'ok',
      ]);
      expect(j.eventsAfter(0, 10).map((e) => `${e.clockId}/${e.seq}`)).toEqual(['C1/1', 'C1/2']);
    });

    it("a commit that fails on the writer thread rejects with SQLite's error, stores nothing of the batch, and the next batch is written", async () => {
      const j = threaded();
      const game = newGame(j);
      await j.appendInBackground(items([ev(1)])).durable;
      // A real failure of the writer's own connection: a trigger aborts its insert.
      journalSql(j).exec(`CREATE TRIGGER refuse BEFORE INSERT ON clock_events WHEN NEW.seq = 3 BEGIN SELECT RAISE(ABORT, 'refused at seq 3'); END`);
      const failed = j.appendInBackground(items([ev(2), ev(3)]));
      await expect(failed.durable).rejects.toThrow(/refused at seq 3/);
      expect(j.writing).toBe(false);
      expect(j.eventsByGame(game.gameId).map((e) => e.seq)).toEqual([1]); // all or none: seq 2 is not stored either
      expect(j.pendingOutbox(10).map((r) => r.kind)).toEqual(['clock-event']); // nor its outbox row
      journalSql(j).exec('DROP TRIGGER refuse');
      const next = j.appendInBackground(items([ev(2), ev(3)]));
      await next.durable;
      expect(next.results.map((r) => (r instanceof Error ? r.message : r.id))).toEqual([2, 3]);
      expect(j.eventsByGame(game.gameId).map((e) => e.seq)).toEqual([1, 2, 3]);
    });

    it('a batch still being written when the journal closes is not answered durable', async () => {
      const j = threaded();
      newGame(j);
      const { durable } = j.appendInBackground(items([ev(1)]));
      j.close();
      await expect(durable).rejects.toThrow(/closed before the batch was durable/);
    });

    it("the MQTT publisher's marks and retained states are written on the writer thread: the event loop runs on while another connection holds the write lock, and they land once it is free (MQTT 3.1.1 §4.3.2: a message stays owed until marked)", async () => {
      const j = threaded();
      const store = j.outboxStore(() => T0);
      await store.appendRetainedAside([
        { topic: 'clocks/v1/slo-w-2007/r1/b1/state', payload: '{"seq":1}', retain: true },
        { topic: 'clocks/v1/slo-w-2007/r1/b2/state', payload: '{"seq":1}', retain: true },
      ]);
      const rows = store.pending(10);
      expect(rows.map((r) => [r.topic, r.retain])).toEqual([
        ['clocks/v1/slo-w-2007/r1/b1/state', true],
        ['clocks/v1/slo-w-2007/r1/b2/state', true],
      ]);
      // Another connection holds the write lock (as the writer's own commit does, an fsync long).
      const blocker = new Database(join(dir, 'thread.db'));
      blocker.exec('BEGIN IMMEDIATE');
      let marked = false;
      const marking = store.markDoneAside(rows.map((r) => r.id)).then(() => (marked = true));
      // Were the marks written on this thread, the call above would have waited in SQLite's busy
      // handler until the lock was free (it never is: this thread holds it) and failed.
      await new Promise((r) => setImmediate(r));
      expect(marked).toBe(false);
      expect(store.pendingCount()).toBe(2);
      blocker.exec('COMMIT');
      blocker.close();
      await marking;
      expect(store.pendingCount()).toBe(0);
      expect(j.storage.current.ok).toBe(true);
      await expect(store.appendRetainedAside([{ topic: 't', payload: 'x', retain: false }])).rejects.toThrow(/only retained states/);
    });

    it('a seq another connection stored beyond the highest this journal knew fails one commit, and its resend is then found as the duplicate it is (nothing stored twice)', async () => {
      const j = threaded();
      newGame(j);
      await j.appendInBackground(items([ev(1)])).durable; // this journal knows C1/b1 up to seq 1
      const other = journal('thread.db');
      const theirs = other.append(ev(2));
      // Beyond the highest seq known, no lookup is made: the writer's insert meets the stored row.
      await expect(j.appendInBackground(items([ev(2)])).durable).rejects.toThrow(/UNIQUE/);
      const again = j.appendInBackground(items([ev(2), ev(3)]));
      await again.durable;
      expect(again.results.map((r) => (r instanceof Error ? r.message : [r.isNew, r.id]))).toEqual([
        [false, theirs.id],
        [true, theirs.id + 1],
      ]);
      expect(j.eventsAfter(0, 10).map((e) => e.seq)).toEqual([1, 2, 3]);
      // Committed on this thread too (append), the same.
      other.append(ev(4));
      expect(() => j.append(ev(4))).toThrow(/UNIQUE/);
      expect(j.append(ev(4)).isNew).toBe(false);
    });

    it('the WAL stays bounded while clock events are committed without a pause, on the writer thread and on the event loop (a journal that grows without end fills the disk mid-round)', async () => {
      for (const writerThread of [true, false]) {
        const file = join(dir, `wal-${writerThread}.db`);
        const j = new Journal(file, { writerThread, checkpointInBackground: { intervalMs: 20 } });
        open.push(j);
        newGame(j);
        let seq = 0;
        let walMax = 0;
        // 4,000 commits of 5 events back to back (a busy hall commits every few ms): about 130 MB
        // of WAL frames were written, and before the fix the file held them all.
        for (let batch = 0; batch < 4_000; batch++) {
          const events = Array.from({ length: 5 }, () => ev(++seq, { whiteMs: 60_000, blackMs: 60_000 }));
          // One commit per turn of the event loop, as the host commits a turn's events.
          if (writerThread) await j.appendInBackground(items(events)).durable;
          else {
            j.appendMany(events);
            await new Promise((r) => setImmediate(r));
          }
          if (batch % 50 === 0) walMax = Math.max(walMax, statSync(`${file}-wal`).size);
        }
        expect(j.append(ev(seq, { whiteMs: 60_000, blackMs: 60_000 })).isNew, `the last event is stored (writer thread: ${writerThread})`).toBe(false);
        expect(walMax / 2 ** 20, `largest WAL, MB (writer thread: ${writerThread})`).toBeLessThan(40);
      }
    }, 120_000);

    it('aside writes the writer thread had not answered when the journal closes are written by the closing thread', async () => {
      const j = threaded();
      const store = j.outboxStore(() => T0);
      const stored = store.appendRetainedAside([{ topic: 'clocks/v1/slo-w-2007/r1/b1/state', payload: '{"seq":7}', retain: true }]);
      j.close();
      await stored;
      const again = journal('thread.db');
      expect(
        again
          .outboxStore(() => T0)
          .pending(10)
          .map((r) => r.payload),
      ).toContain('{"seq":7}');
    });
  });

  it("board state: each board's newest game and its latest event (whose clock runs is the rule book's: host/app/live-state.ts)", () => {
    const j = journal();
    newGame(j);
    newGame(j, { board: 2, clockId: 'C2', white: 'A', black: 'B' });
    j.append(ev(0, { type: 'started', side: null, move: null }));
    j.append(ev(1));
    j.append(ev(0, { clockId: 'C2', type: 'started', side: null, move: null }));
    const states = j.boardStates('slo-w-2007');
    expect(states.map((s) => [s.board, s.last?.type])).toEqual([
      [1, 'moved'],
      [2, 'started'],
    ]);
    j.append(ev(2, { type: 'paused', side: null }));
    expect(j.boardStates()[0].last?.type).toBe('paused');
  });

  it("results: a clock result needs both players' confirmation; the arbiter must confirm before export", () => {
    const j = journal();
    const game = newGame(j);
    expect(() => j.reportResult(game.gameId, { result: '1/2-1/2', how: 'agreement', source: 'clock', utcMs: T0 })).toThrow(/both players confirmed/);
    j.reportResult(game.gameId, { result: '1/2-1/2', how: 'agreement', source: 'clock', bothPlayersConfirmed: true, utcMs: T0 + 1 });
    expect(j.results('slo-w-2007')).toHaveLength(1);
    expect(j.results('slo-w-2007', { confirmedOnly: true })).toHaveLength(0);
    j.confirmResult(game.gameId, 'Ana Srebrnič', T0 + 2);
    expect(j.results('slo-w-2007', { confirmedOnly: true })[0]).toMatchObject({
      result: '1/2-1/2',
      reportedBy: 'clock',
      confirmedBy: 'Ana Srebrnič',
      endedUtcMs: T0 + 1,
    });
    // Once confirmed, only an arbiter may change it, and that clears the confirmation.
    expect(() => j.reportResult(game.gameId, { result: '1-0', how: 'x', source: 'clock', bothPlayersConfirmed: true, utcMs: T0 + 3 })).toThrow(
      /only an arbiter/,
    );
    // FIDE Laws 8.7: a confirmed result changes only by the arbiter's decision, which says why.
    expect(() => j.reportResult(game.gameId, { result: '1-0', how: 'appeal', source: 'arbiter', arbiter: 'Ana Srebrnič', utcMs: T0 + 4 })).toThrow(
      /a correction of a confirmed result must say why/,
    );
    expect(() =>
      j.reportResult(game.gameId, { result: '1-0', how: 'appeal', source: 'arbiter', arbiter: 'Ana Srebrnič', utcMs: T0 + 4, reason: '  ' }),
    ).toThrow(/"reason"/);
    j.reportResult(game.gameId, {
      result: '1-0',
      how: 'appeal',
      source: 'arbiter',
      arbiter: 'Ana Srebrnič',
      utcMs: T0 + 4,
      reason: 'appeal upheld: Black had resigned',
    });
    expect(j.getGame(game.gameId)).toMatchObject({ result: '1-0', confirmedBy: null, reportedBy: 'arbiter:Ana Srebrnič' });
    // A correction does not move the game's end (the break before a tie-break counts from it).
    expect(j.getGame(game.gameId)!.endedUtcMs).toBe(T0 + 1);
    expect(j.arbiterActions(game.gameId).map((a) => a.action)).toEqual(['confirm-result', 'result']);
    // The correction keeps what it replaced, who had entered it and who had confirmed it, and why.
    expect(j.arbiterActions(game.gameId)[1].payload).toEqual({
      result: '1-0',
      how: 'appeal',
      previous: { result: '1/2-1/2', how: 'agreement', reportedBy: 'clock', confirmedBy: 'Ana Srebrnič' },
      reason: 'appeal upheld: Black had resigned',
    });
  });

  it('arbiter actions are journaled with who did it, refused ones too', () => {
    const j = journal();
    const game = newGame(j);
    j.recordArbiterAction({ utcMs: T0, arbiter: 'Ana', action: 'adjust', gameId: game.gameId, payload: { side: 'white', ms: 120_000 }, outcome: 'applied' });
    j.recordArbiterAction({ utcMs: T0 + 1, arbiter: 'Ana', action: 'configure', gameId: game.gameId, outcome: 'rejected', reason: 'clock running' });
    expect(j.arbiterActions().map((a) => [a.arbiter, a.action, a.outcome, a.reason])).toEqual([
      ['Ana', 'adjust', 'applied', null],
      ['Ana', 'configure', 'rejected', 'clock running'],
    ]);
    expect(j.arbiterActions()[0].payload).toEqual({ side: 'white', ms: 120_000 });
  });

  it('outbox: rows stay pending until marked published, and marking twice counts once', () => {
    const j = journal();
    newGame(j);
    j.appendMany([ev(1), ev(2)]);
    const pending = j.pendingOutbox();
    expect(pending.map((r) => r.kind)).toEqual(['clock-event', 'clock-event']);
    expect(pending[0].payload).toMatchObject({ clockId: 'C1', seq: 1, event: 'slo-w-2007' });
    expect(j.markPublished([pending[0].id], T0)).toBe(1);
    expect(j.markPublished([pending[0].id], T0)).toBe(0);
    expect(j.outboxBacklog()).toBe(1);
  });

  it('outbox topic hook and the MQTT OutboxStore contract: drafted in the same transaction, done only when marked', () => {
    const j = new Journal(join(dir, 'mqtt.db'), {
      outboxTopic: (kind, payload) =>
        kind === 'clock-event' ? { topic: `chessclock/ev/${(payload as { clockId: string }).clockId}`, payload: JSON.stringify(payload), retain: false } : null,
    });
    open.push(j);
    newGame(j);
    j.appendMany([ev(1), ev(1), ev(2)]);
    let now = T0;
    const store = j.outboxStore(() => now);
    expect(store.pendingCount()).toBe(2); // the duplicate drafted nothing
    store.append([{ topic: 'chessclock/status/C1', payload: 'up', retain: true }]);
    const rows = store.pending(10);
    expect(rows.map((r) => [r.topic, r.retain])).toEqual([
      ['chessclock/ev/C1', false],
      ['chessclock/ev/C1', false],
      ['chessclock/status/C1', true],
    ]);
    expect(store.pending(10, rows[0].id).map((r) => r.id)).toEqual([rows[1].id, rows[2].id]);
    now = T0 + 5;
    store.markDone([rows[0].id, rows[0].id]);
    expect(store.pendingCount()).toBe(2);
    // Retained states are written without an fsync of their own, and the connection
    // is back at synchronous=FULL (2) after, for the clock events' commits.
    expect(journalSql(j).pragma('synchronous', { simple: true })).toBe(2);
    store.append([{ topic: 'chessclock/state/1', payload: 'running', retain: true }]);
    expect(journalSql(j).pragma('synchronous', { simple: true })).toBe(2);
    expect(() => store.append([{ topic: '', payload: 'x', retain: true }])).toThrow(/topic/);
    expect(journalSql(j).pragma('synchronous', { simple: true })).toBe(2);
    expect(store.pending(10).map((r) => r.topic)).toEqual(['chessclock/ev/C1', 'chessclock/status/C1', 'chessclock/state/1']);
  });

  it('upgrades a version 1 journal file in place: its games and events stay, the result reports table, the read generation (v3), the board index (v4) and the broadcast log (v5) are added', () => {
    const path = join(dir, 'v1.db');
    const old = new Database(path);
    old.exec(SCHEMA_V1);
    old.pragma('user_version = 1');
    old
      .prepare(`INSERT INTO games (event, round, board, kind, white, black, time_control, time_control_json, clock_id, result, reported_by, created_utc_ms)
      VALUES ('slo-w-2007', 1, 1, 'classical', 'A', 'B', '3600', ?, 'C1', '1-0', 'clock', ?)`)
      .run(JSON.stringify(presetTimeControl('sudden-death-60')), T0);
    old.close();
    const j = new Journal(path);
    open.push(j);
    expect(SCHEMA_VERSION).toBe(5);
    expect(journalSql(j).pragma('user_version', { simple: true })).toBe(5);
    expect(j.gamesByRound('slo-w-2007', 1)).toEqual([expect.objectContaining({ white: 'A', result: '1-0', reportedBy: 'clock' })]);
    expect(j.resultReports({ pending: true })).toEqual([]);
    // v3: every write to games counts (whichever connection writes: the triggers are in the file).
    const before = journalSql(j).prepare('SELECT n FROM read_generation').pluck().get() as number;
    j.assignClock(1, 'C2');
    expect(journalSql(j).prepare('SELECT n FROM read_generation').pluck().get()).toBe(before + 1);
    // v4: a board's current game is found by its board, not by reading every game of its event.
    const plan = journalSql(j)
      .prepare('EXPLAIN QUERY PLAN SELECT * FROM games WHERE event = ? AND board = ? ORDER BY round DESC, game_no DESC LIMIT 1')
      .all('slo-w-2007', 1) as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail)).toEqual([expect.stringMatching(/USING INDEX games_by_board \(event=\? AND board=\?\)/)]);
    expect(j.currentGameOfBoard('slo-w-2007', 1)).toMatchObject({ white: 'A', clockId: 'C2' });
    // v5: what left for a broadcast, and when (docs/broadcast.md "The delay").
    const push = {
      sentUtcMs: T0 + 900_000,
      answeredUtcMs: T0 + 900_120,
      event: 'slo-w-2007',
      round: 1,
      lichessRound: 'aBcD1234',
      delayMs: 900_000,
      asOfUtcMs: T0,
      newestUtcMs: T0 - 5_000,
      games: [{ gameId: 'slo-w-2007:1.1.1', plies: 12, moves: 12, error: null }],
      status: 200,
      message: null,
    };
    j.recordBroadcastPush(push);
    expect(j.broadcastPushes('slo-w-2007')).toEqual([{ id: 1, ...push }]);
    expect(() => j.recordBroadcastPush({ ...push, lichessRound: '' })).toThrow(/"lichessRound" must be a non-empty string/);
    // Opening it again changes nothing (each step runs once).
    j.close();
    const again = new Journal(path);
    open.push(again);
    expect(journalSql(again).pragma('user_version', { simple: true })).toBe(5);
    expect(again.broadcastPushes()).toHaveLength(1);
  });

  it("a clock's result is filed once against its game: recorded, agreed, or pending beside a different one (FIDE Laws 8.7: the arbiter decides); never over it", () => {
    const j = journal();
    const game = newGame(j);
    const resultEvent = (seq: number, result: string) =>
      j.append(ev(seq, { type: 'result', side: null, move: null, detail: { result, confirmedBy: 'players' } })).id;
    const file = (eventId: number, result: '1-0' | '0-1', gameId: number | null = game.gameId) =>
      j.fileClockResult({ eventId, clockId: 'C1', gameId, result, how: 'played', source: 'clock', bothPlayersConfirmed: true, utcMs: T0 + eventId });
    const first = resultEvent(1, '1-0');
    expect(file(first, '1-0')).toMatchObject({ outcome: 'recorded', game: { result: '1-0', reportedBy: 'clock' } });
    expect(file(first, '1-0').outcome).toBe('duplicate'); // a retransmission after a host crash
    j.confirmResult(game.gameId, 'Ana Srebrnič', T0 + 10);
    const same = j.append(ev(2, { type: 'result', side: null, move: null, utcMs: T0 - 1, detail: { result: '1-0' } })).id;
    expect(file(same, '1-0').outcome).toBe('agreed');
    const other = j.append(ev(3, { type: 'result', side: null, move: null, utcMs: T0 - 1, detail: { result: '0-1' } })).id;
    const conflict = file(other, '0-1');
    expect(conflict).toMatchObject({ outcome: 'pending', report: { result: '0-1', reportedBy: 'clock', status: 'pending', gameId: game.gameId } });
    // The confirmed result stays; the report waits beside it.
    expect(j.getGame(game.gameId)).toMatchObject({ result: '1-0', confirmedBy: 'Ana Srebrnič' });
    expect(j.resultReports({ pending: true }).map((r) => r.result)).toEqual(['0-1']);
    // The arbiter adopts it: a correction of a confirmed result, so only with a reason.
    expect(() => j.confirmResult(game.gameId, 'Ana Srebrnič', T0 + 20, { reportId: conflict.report.id })).toThrow(/must say why/);
    const adopted = j.confirmResult(game.gameId, 'Ana Srebrnič', T0 + 20, { reportId: conflict.report.id, reason: 'the scoresheets say 0-1' });
    expect(adopted).toMatchObject({ result: '0-1', reportedBy: 'clock', confirmedBy: 'Ana Srebrnič', endedUtcMs: T0 + first });
    expect(j.resultReports({ gameId: game.gameId }).map((r) => [r.result, r.status, r.resolvedBy])).toEqual([
      ['1-0', 'recorded', null],
      ['1-0', 'agreed', null],
      ['0-1', 'adopted', 'Ana Srebrnič'],
    ]);
    expect(j.arbiterActions(game.gameId).at(-1)).toMatchObject({
      action: 'confirm-result',
      arbiter: 'Ana Srebrnič',
      payload: {
        result: '0-1',
        adopted: { result: '0-1', reportedBy: 'clock' },
        previous: { result: '1-0', confirmedBy: 'Ana Srebrnič' },
        reason: 'the scoresheets say 0-1',
      },
    });
    // A clock with no game: kept, unassigned, for the arbiter.
    const stray = j.append(ev(1, { clockId: 'C9', type: 'result', side: null, move: null, detail: { result: '1-0' } }));
    expect(j.eventsAfter(stray.id - 1, 1)[0].gameId).toBeNull();
    expect(
      j.fileClockResult({
        eventId: stray.id,
        clockId: 'C9',
        gameId: null,
        result: '1-0',
        how: 'played',
        source: 'clock',
        bothPlayersConfirmed: true,
        utcMs: T0,
      }),
    ).toMatchObject({
      outcome: 'pending',
      game: null,
      report: { clockId: 'C9', gameId: null, status: 'pending' },
    });
    expect(j.resultReports({ pending: true })).toEqual([expect.objectContaining({ clockId: 'C9', gameId: null })]);
  });

  it("a clock that was offline at its game's result: what it played before the result belongs to that game, not to the next one already assigned to it", () => {
    const j = journal();
    const g1 = newGame(j, { matchId: null });
    j.append(ev(1, { type: 'started', side: null, move: null }));
    // The arbiter enters the result at the host at T0 + 10 s; the director assigns game 2 to the same clock.
    j.reportResult(g1.gameId, { result: '1-0', how: 'arbiter', source: 'arbiter', arbiter: 'Ana', utcMs: T0 + 10_000 });
    const g2 = newGame(j, { gameNo: 2, createdUtcMs: T0 + 11_000 });
    // Back online, the clock delivers its outbox: a press at T0 + 5 s (before the result), one at T0 + 20 s (after), the players' result.
    j.append(ev(5));
    j.append(ev(20));
    j.append(ev(21, { type: 'result', side: null, move: null, detail: { result: '0-1', confirmedBy: 'players' } }));
    expect(j.eventsByGame(g1.gameId).map((e) => e.seq)).toEqual([1, 5]);
    // After the end, game 2 has not started on the clock: the late press is (still) game 2's, but
    // a result cannot be (the clock refuses a result before the start): it belongs to no game here.
    expect(j.eventsByGame(g2.gameId).map((e) => e.seq)).toEqual([20]);
    expect(j.eventsAfter(0, 100).find((e) => e.seq === 21)!.gameId).toBeNull();
    expect(j.playedGameOfClock('C1')!.gameId).toBe(g1.gameId);
    // Once game 2 starts (same instant as the end is fine: a start is always the new game's), everything is game 2's.
    j.append(ev(22, { type: 'started', side: null, move: null, utcMs: T0 + 10_000 }));
    j.append(ev(23, { utcMs: T0 + 9_000 }));
    expect(j.eventsByGame(g2.gameId).map((e) => e.seq)).toEqual([20, 22, 23]);
    expect(j.playedGameOfClock('C1')!.gameId).toBe(g2.gameId);
  });

  it('the feed row of a new event is the row the journal stored (read back by eventsAfter); a duplicate has none', () => {
    const j = journal();
    newGame(j);
    const [first, second] = j.appendMany([ev(1), ev(2, { detail: { note: 'x', n: 2 } })]);
    expect(first.row).toEqual(j.eventsAfter(first.id - 1, 1)[0]);
    expect(second.row).toEqual(j.eventsAfter(second.id - 1, 1)[0]);
    expect(j.append(ev(1)).row).toBeUndefined();
  });

  it("a game read twice is read again after any change: its own writes, a rolled-back one, another process's from the next turn (the read cache)", async () => {
    const j = journal();
    const game = newGame(j);
    expect(j.getGame(game.gameId)!.result).toBeNull();
    j.reportResult(game.gameId, { result: '1/2-1/2', how: 'agreement', source: 'clock', bothPlayersConfirmed: true, utcMs: T0 + 1 });
    expect(j.getGame(game.gameId)!.result).toBe('1/2-1/2');
    // What it hands out cannot be changed under the next reader.
    expect(() => ((j.getGame(game.gameId) as { result: string | null }).result = '1-0')).toThrow(TypeError);
    // A write rolled back inside a transaction leaves no trace in what is read after.
    expect(() =>
      journalSql(j).transaction(() => {
        j.confirmResult(game.gameId, 'Ana Srebrnič', T0 + 2);
        expect(j.getGame(game.gameId)!.confirmedBy).toBe('Ana Srebrnič');
        throw new Error('roll back');
      })(),
    ).toThrow('roll back');
    expect(j.getGame(game.gameId)!.confirmedBy).toBeNull();
    // Another connection to the same file (e.g. a second process) commits: a read in a later
    // event-loop turn sees it (the schema's write count, read_generation, is read once per turn).
    const other = journal();
    other.confirmResult(game.gameId, 'Ana Srebrnič', T0 + 3);
    await new Promise((r) => setImmediate(r));
    expect(j.getGame(game.gameId)!.confirmedBy).toBe('Ana Srebrnič');
    expect(j.resultReports({ gameId: game.gameId })).toEqual([]);
  });

  it('checkpoints the WAL in a worker thread, not inside a commit until the WAL holds 4,096 pages (a commit that crosses wal_autocheckpoint would stall the host; the WAL must still start over)', async () => {
    const reports: Array<{ log: number; checkpointed: number }> = [];
    let wake: () => void = () => {};
    const j = new Journal(join(dir, 'bg.db'), {
      checkpointInBackground: {
        intervalMs: 20,
        onCheckpoint: (r) => {
          reports.push(r);
          wake();
        },
      },
    });
    open.push(j);
    expect(journalSql(j).pragma('wal_autocheckpoint', { simple: true })).toBe(4096);
    newGame(j);
    j.appendMany(Array.from({ length: 200 }, (_, i) => ev(i + 1)));
    // Wait (bounded by the test's timeout) for a checkpoint that copied the whole WAL written so far.
    while (!reports.some((r) => r.log > 0 && r.checkpointed === r.log)) await new Promise<void>((r) => (wake = r));
    j.close();
    const again = journal('bg.db');
    expect(again.eventsAfter(0, 1000)).toHaveLength(200);
  });

  it('refuses a duplicate game slot with a clear error', () => {
    const j = journal();
    newGame(j);
    expect(() => newGame(j)).toThrow(/game slo-w-2007 round 1 board 1 game 1 already exists/);
  });
});
