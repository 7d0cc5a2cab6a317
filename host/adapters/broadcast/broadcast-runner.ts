// The broadcast run by the host (docs/broadcast.md "Running it"): each mapped round's games,
// merged from the journal and the event's moves source (live-pgn.ts), pushed to its lichess
// round (lichess-push.ts) whenever something of the round changed — a clock event journaled
// (HostState `subscribe`), a board changed with no event (`watchBoards`: a result, a restore, an
// arbiter's command), or a new moves text. Changes within `settleMs` go out as one state, and the
// pusher sends the latest state of each round, one request at a time.
//
// With a delay for the event (docs/broadcast.md "The delay"), a round is shown as the journal held
// it `delay` ago (host/app/journal-as-of.ts): a fact journaled at T is due at T + delay
// (delay-releases.ts, on the host's time), and only then does a push carry it. Each request that
// leaves is journaled with what it held and lichess's answer (`broadcast_pushes`).

import type { Hall, TournamentEvent } from '../../domain/model.ts';
import type { HostState } from '../../app/ports.ts';
import type { BroadcastNoteSink, BroadcastRoundNotes } from '../../app/broadcast-notes.ts';
import type { Journal } from '../../store/journal.ts';
import { factTimesAfter, gameAsOf, type GameWithEvents } from '../../app/journal-as-of.ts';
import { DelayReleases, type HostTimers } from './delay-releases.ts';
import { LichessPusher, type PushReport, type PushRequest } from './lichess-push.ts';
import { type BoardWarning, broadcastRound, type RoundState, type UnmatchedGame } from './live-pgn.ts';
import { RoundMergeCache } from './round-merge-cache.ts';
import { type MovesSource, type MovesSourceSpec, type MovesText, openMovesSource, placeOf } from './moves-source.ts';

/** One event's round broadcast to one lichess round. */
export interface BroadcastTarget {
  event: string;
  round: number;
  /** The lichess round's id (8 characters). */
  roundId: string;
  /** Only these event boards (inclusive), when the round is split over several lichess rounds; absent: all. */
  boards?: { from: number; to: number };
}

export interface BroadcastSetup {
  targets: readonly BroadcastTarget[];
  /** `https://lichess.org`, a stand-in or a mirror. */
  lichessUrl: string;
  /** The OAuth token (scope `study:write`); never logged. */
  token: string;
  /** Each event's moves source, by event id; an event without one broadcasts clocks and results. */
  moves?: Readonly<Record<string, MovesSourceSpec>>;
  /** Each event's delay in seconds (docs/broadcast.md "The delay"; the tournament file's blocks: broadcast-options.ts fileBroadcastDelays); an event not named has none. */
  delays?: Readonly<Record<string, number>>;
  /** Timers for the delay's releases, instead of the host's (a test whose host timers run on real time while its clock is accelerated). */
  releaseTimers?: HostTimers;
  /** Changes within this time go out as one state. Default 200 ms. */
  settleMs?: number;
  /** A file or folder source's quiet time; a URL source's poll interval. */
  movesDebounceMs?: number;
  movesPollMs?: number;
}

export interface BroadcastDeps {
  journal: Journal;
  hall: Hall;
  state: HostState;
  nowUtcMs: () => number;
  log: (line: string) => void;
  /** Where each board's warning, lichess error and the round's unmatched games go for the dashboard (docs/broadcast.md "On the dashboard"). */
  notes?: BroadcastNoteSink;
  /** Timers on the host's time, for the delay's releases (default: the system's). */
  timers?: HostTimers;
}

/** What a mapped round's broadcast says now: the board warnings, the unmatched games, lichess's last answer. */
export interface TargetStatus extends BroadcastTarget {
  warnings: BoardWarning[];
  unmatched: UnmatchedGame[];
  lastPush: PushReport | null;
}

export interface RunningBroadcast {
  readonly pusher: LichessPusher;
  status(): TargetStatus[];
  /** Resolves when no change waits and no push is out. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export function startBroadcast(deps: BroadcastDeps, setup: BroadcastSetup): RunningBroadcast {
  const events = eventsOf(deps, setup);
  const pusher = new LichessPusher({ base: setup.lichessUrl, token: setup.token, now: deps.nowUtcMs });
  const delayMs = (event: string) => Math.round((setup.delays?.[event] ?? 0) * 1000);
  const texts = new Map<string, MovesText>();
  const status = new Map<BroadcastTarget, TargetStatus>(setup.targets.map((t) => [t, { ...t, warnings: [], unmatched: [], lastPush: null }]));
  // Each target's merges of its earlier states: a board is merged again only when its journal or moves changed.
  const caches = new Map(setup.targets.map((t) => [t, new RoundMergeCache()]));
  const dirty = new Set<BroadcastTarget>();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const notes = noteTeller(deps.notes, status, () => closed);
  const { merged, note } = notes;

  const flush = () => {
    timer = null;
    for (const target of [...dirty]) {
      dirty.delete(target);
      const merge = { moves: texts.get(target.event) ?? null, delayMs: delayMs(target.event), cache: caches.get(target)! };
      const m = pushTarget(deps, events.get(target.event)!, target, merge, pusher, status.get(target)!);
      if (m) merged.set(target, m);
      note(target);
    }
  };
  const markNow = (targets: readonly BroadcastTarget[]) => {
    if (closed) return;
    for (const t of targets) dirty.add(t);
    if (dirty.size > 0 && timer === null) timer = setTimeout(flush, setup.settleMs ?? 200);
  };
  const releases = new DelayReleases<BroadcastTarget>(
    setup.releaseTimers ?? deps.timers ?? systemTimers,
    deps.nowUtcMs,
    (t) => markNow([t]),
    setup.settleMs ?? 200,
  );
  /** A change of the round now: pushed at once without a delay, due at now + delay with one. */
  const mark = (event: string, round: number | null) => {
    const targets = setup.targets.filter((t) => t.event === event && (round === null || t.round === round));
    const delay = delayMs(event);
    if (delay === 0) markNow(targets);
    else for (const t of targets) releases.at(deps.nowUtcMs() + delay, t);
  };
  const sources = openSources(deps, setup, (event, m) => {
    texts.set(event, m);
    // A delayed round shows only moves pressed by now − delay: a new text can show at once.
    markNow(setup.targets.filter((t) => t.event === event));
  });
  const stopEvents = deps.state.subscribe((_e, board) => board && mark(board.event, board.round));
  const stopBoards = deps.state.watchBoards((board) => notes.noting() || mark(board.event, board.round));
  followPusher(deps, setup, pusher, status, note, delayMs);
  markNow(setup.targets);
  for (const t of setup.targets) scheduleStart(deps, t, delayMs(t.event), releases);

  return {
    pusher,
    status: () => [...status.values()].map((s) => ({ ...s })),
    async idle() {
      while (timer !== null || dirty.size > 0) await new Promise((resolve) => setTimeout(resolve, setup.settleMs ?? 200));
      await pusher.idle();
    },
    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      releases.close();
      stopEvents();
      stopBoards();
      for (const s of sources) s.stop();
      pusher.stop();
      await pusher.idle();
    },
  };
}

/** The events the setup names, each found in the tournament file (a name not there is refused). */
function eventsOf(deps: BroadcastDeps, setup: BroadcastSetup): Map<string, TournamentEvent> {
  const events = new Map<string, TournamentEvent>();
  for (const t of setup.targets) {
    const event = deps.hall.events.find((e) => e.id === t.event);
    if (!event) throw new Error(`broadcast: no event "${t.event}" in the tournament file (events: ${deps.hall.events.map((e) => e.id).join(', ')})`);
    events.set(event.id, event);
  }
  return events;
}

/** What the pusher says: a failure logged, lichess's answer kept per target and told, each request journaled. */
function followPusher(
  deps: BroadcastDeps,
  setup: BroadcastSetup,
  pusher: LichessPusher,
  status: Map<BroadcastTarget, TargetStatus>,
  note: (t: BroadcastTarget) => void,
  delayMs: (event: string) => number,
): void {
  pusher.on('failed', (f) => deps.log(`broadcast: push of lichess round ${f.roundId} failed: ${f.message}; next try in ${Math.round(f.retryInMs / 1000)} s`));
  pusher.on('pushed', (report) => {
    for (const [t, s] of status) {
      if (s.roundId !== report.roundId) continue;
      s.lastPush = report;
      note(t);
    }
    for (const g of report.games) if (g.error) deps.log(`broadcast: lichess refused ${g.gameId} (board ${g.board}): ${g.error}`);
  });
  pusher.on('request', (r) => journalPush(deps, setup.targets, r, delayMs));
}

/** Each event's moves source, started; each new text handed to `onMoves`, what a source says logged. */
function openSources(deps: BroadcastDeps, setup: BroadcastSetup, onMoves: (event: string, m: MovesText) => void): MovesSource[] {
  return Object.entries(setup.moves ?? {}).map(([event, spec]) => {
    const source = openMovesSource(spec, {
      ...(setup.movesDebounceMs !== undefined ? { debounceMs: setup.movesDebounceMs } : {}),
      ...(setup.movesPollMs !== undefined ? { pollMs: setup.movesPollMs } : {}),
    });
    source.on('moves', (m) => onMoves(event, m));
    source.on('incomplete', (why) => deps.log(`broadcast: moves of ${event}: ${why}`));
    source.on('problem', (why) => deps.log(`broadcast: moves of ${event}: ${why}`));
    source.start();
    return source;
  });
}

/** The round's state read from the journal, merged and handed to the pusher; what it says kept in the target's status. */
function pushTarget(
  deps: BroadcastDeps,
  event: TournamentEvent,
  target: BroadcastTarget,
  { moves, delayMs, cache }: { moves: MovesText | null; delayMs: number; cache: RoundMergeCache },
  pusher: LichessPusher,
  status: TargetStatus,
): { boards: number[]; unmatched: string[] } | null {
  // Without a delay the round as it is; with one, as the journal held it `delayMs` ago.
  const instant = deps.nowUtcMs() - delayMs;
  const state: RoundState = { event, site: deps.hall.site ?? event.city ?? '?', games: roundGames(deps, event.id, target.round, delayMs > 0 ? instant : null) };
  let round: ReturnType<typeof broadcastRound>;
  try {
    round = broadcastRound(state, instant, moves?.text ?? null, { pressedMovesOnly: delayMs > 0, cache });
  } catch (err) {
    deps.log(`broadcast: round ${target.round} of ${event.id}: ${(err as Error).message}`);
    return null;
  }
  const said = (list: readonly unknown[]) => JSON.stringify(list);
  if (said(round.unmatched) !== said(status.unmatched)) {
    for (const u of round.unmatched)
      deps.log(`broadcast: moves game "${u.game}" (${placeOf(moves!, u.line)}) is no board of round ${target.round} of ${event.id}: ${u.reason}`);
  }
  const inRange = (g: { board: number }) => !target.boards || (g.board >= target.boards.from && g.board <= target.boards.to);
  status.warnings = round.warnings.filter(inRange);
  status.unmatched = round.unmatched;
  const games = round.games.filter(inRange);
  if (games.length > 0) pusher.push(target.roundId, games);
  return { boards: games.map((g) => g.board), unmatched: round.unmatched.map((u) => `"${u.game}" (${placeOf(moves!, u.line)}): ${u.reason}`) };
}

/**
 * Tells the dashboard (BroadcastNoteSink) what each target says after its merge and its push. The
 * boards the notes change go out through watchBoards at once, synchronously: while telling,
 * `noting()` is true, so the runner does not take them for a change of the round to push again.
 */
function noteTeller(sink: BroadcastNoteSink | undefined, status: ReadonlyMap<BroadcastTarget, TargetStatus>, closed: () => boolean) {
  // The boards pushed and the unmatched games (with their places) of each target's last merge.
  const merged = new Map<BroadcastTarget, { boards: number[]; unmatched: string[] }>();
  let noting = false;
  const note = (target: BroadcastTarget) => {
    const m = merged.get(target);
    if (!sink || !m || closed()) return;
    noting = true;
    try {
      sink.broadcastNotes(notesOf(target, status.get(target)!, m));
    } finally {
      noting = false;
    }
  };
  return { merged, note, noting: () => noting };
}

/** What a target says for the dashboard: its merge's warnings and unmatched games, and lichess's errors at its last push. */
function notesOf(target: BroadcastTarget, s: TargetStatus, m: { boards: number[]; unmatched: string[] }): BroadcastRoundNotes {
  return {
    event: target.event,
    round: target.round,
    lichessRound: target.roundId,
    boards: m.boards,
    warnings: s.warnings.map((w) => ({ board: w.board, message: w.message })),
    errors: (s.lastPush?.games ?? []).flatMap((g) => (g.error ? [{ board: g.board, gameId: g.gameId, error: g.error }] : [])),
    unmatched: m.unmatched,
  };
}

/** The round's games and their events from the journal; as they stood at `asOf` when given. */
function roundGames(deps: BroadcastDeps, event: string, round: number, asOf: number | null): GameWithEvents[] {
  const games = deps.journal.gamesByRound(event, round).map((game) => ({ game, events: deps.journal.eventsByGame(game.gameId) }));
  if (asOf === null) return games;
  return games.flatMap(({ game, events }) => gameAsOf(game, events, asOf) ?? []);
}

/** A delayed round's facts of the last `delay` before the start (a host restarted mid-round): each due at its time + delay. */
function scheduleStart(deps: BroadcastDeps, target: BroadcastTarget, delayMs: number, releases: DelayReleases<BroadcastTarget>): void {
  if (delayMs === 0) return;
  for (const t of factTimesAfter(roundGames(deps, target.event, target.round, null), deps.nowUtcMs() - delayMs)) releases.at(t + delayMs, target);
}

/** Each request that left, journaled: its games and their moves, the instant they were shown as of, the delay, lichess's answer. */
function journalPush(deps: BroadcastDeps, targets: readonly BroadcastTarget[], r: PushRequest, delayMs: (event: string) => number): void {
  const target = targets.find((t) => t.roundId === r.roundId);
  if (!target) return;
  try {
    deps.journal.recordBroadcastPush({
      sentUtcMs: r.sentUtcMs,
      answeredUtcMs: deps.nowUtcMs(),
      event: target.event,
      round: target.round,
      lichessRound: r.roundId,
      delayMs: delayMs(target.event),
      asOfUtcMs: Math.max(...r.games.map((g) => g.asOfUtcMs), 0),
      newestUtcMs: r.games.length > 0 ? Math.max(...r.games.map((g) => g.newestUtcMs)) : null,
      games: r.games.map((g, i) => ({ gameId: g.gameId, plies: g.plies, moves: r.outcomes?.[i]?.moves ?? null, error: r.outcomes?.[i]?.error ?? null })),
      status: r.status,
      message: r.message,
    });
  } catch (err) {
    deps.log(`broadcast: the push to lichess round ${r.roundId} could not be journaled: ${(err as Error).message}`);
  }
}

const systemTimers: HostTimers = {
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
