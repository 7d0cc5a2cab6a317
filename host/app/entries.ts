// Entries without a restart (docs/tournament.md "Entries"): a late entry, a withdrawal, a
// requested bye and a round's start time, made by an arbiter in a running host.
//
// Each is journaled as an arbiter action of its event (and round) with who made it, like the
// next round's proposals (next-round.ts), so the journal alone says what the hall knows:
//
//   late-entry     payload `player` (the fields of a tournament file's player) and `fromRound`
//   withdraw       payload `player` (starting rank) and `fromRound`: absent from that round on
//   requested-bye  payload `player`, `round`, `points` (0, ½ or 1) and its TRF16 code `kind` (Z, H, F)
//   round-start    payload `round` and `startUtcMs`
//
// An entry changes only rounds not paired yet: it is refused, with the reason, once the round it
// affects is proposed or opened (FIDE C.04.1: the pairing of a round, once published, is not
// changed for an entry made after it). What it does reaches the round when it is paired:
// `withEntries` adds the absent players' byes (a withdrawal: Z, TRF16's zero-point bye, a known
// absence; a requested bye: its code) and the start time to a proposal, and refuses a proposal that
// pairs an absent player; `roundAbsences` is what the TRF for the round's pairing program marks
// (host/adapters/exports/trf-event.ts). `restoreEntries` adds the late entrants to their events
// when a director is built on the journal (a restarted host, `chessclock export`).

import type { ArbiterActionRow, Journal } from '../store/journal.ts';
import type { ByeKind, Hall, Player, Round, TournamentEvent } from '../domain/model.ts';
import { FieldChecker } from '../domain/tournament-file/field-checker.ts';
import { parsePlayer } from '../domain/tournament-file/players.ts';
import type { EntriesView, EntryCommand } from './ports.ts';

export const LATE_ENTRY = 'late-entry';
export const WITHDRAW = 'withdraw';
export const REQUESTED_BYE = 'requested-bye';
export const ROUND_START = 'round-start';
const ENTRY_ACTIONS: readonly string[] = [LATE_ENTRY, WITHDRAW, REQUESTED_BYE, ROUND_START];

/**
 * A requested bye's points when the arbiter gives none: ½ (FIDE C.04.1 and the regulations of
 * docs/regulations.md leave it to the event; the half-point bye is the usual one, TRF16 code H).
 */
export const DEFAULT_REQUESTED_BYE_POINTS = 0.5;

/** A requested bye's points as its TRF16 code: 0 Z (zero-point bye), ½ H (half-point bye), 1 F (full-point bye). */
const BYE_CODE: ReadonlyMap<number, ByeKind> = new Map([
  [0, 'Z'],
  [0.5, 'H'],
  [1, 'F'],
]);

/** A refusal, with the HTTP status the API answers it with. */
export class EntryError extends Error {
  constructor(
    readonly status: 404 | 409 | 422,
    message: string,
  ) {
    super(message);
    this.name = 'EntryError';
  }
}

/** A player absent from a round, and the TRF16 code of that round (Z a withdrawal or a zero-point bye, H, F). */
export interface Absence {
  rank: number;
  kind: ByeKind;
  /** What makes the player absent, in words (`withdrew from round 2 on (Ana Srebrnič (IA))`). */
  why: string;
}

/** The applied entries of an event, in journal order. */
function entryRows(journal: Journal, eventId: string): ArbiterActionRow[] {
  return journal.arbiterActions().filter((a) => a.event === eventId && a.outcome === 'applied' && ENTRY_ACTIONS.includes(a.action));
}

const payloadOf = <T>(a: ArbiterActionRow) => a.payload as T;

/** Adds every late entrant in the journal to its event's players (idempotent). */
export function restoreEntries(journal: Journal, hall: Hall): void {
  for (const a of journal.arbiterActions()) {
    if (a.action !== LATE_ENTRY || a.outcome !== 'applied' || a.event === null) continue;
    const event = hall.events.find((e) => e.id === a.event);
    const { player } = payloadOf<{ player: Player }>(a);
    if (event && !event.players.some((p) => p.rank === player.rank)) event.players.push(player);
  }
}

/** Who is absent from `round` and why: the withdrawn, the requested byes, the late entrants not in yet. */
export function roundAbsences(journal: Journal, event: TournamentEvent, round: number): Absence[] {
  const out = new Map<number, Absence>();
  for (const a of entryRows(journal, event.id)) {
    if (a.action === WITHDRAW) {
      const w = payloadOf<{ player: number; fromRound: number }>(a);
      if (w.fromRound <= round) out.set(w.player, { rank: w.player, kind: 'Z', why: `withdrew from round ${w.fromRound} on (${a.arbiter})` });
    } else if (a.action === REQUESTED_BYE) {
      const b = payloadOf<{ player: number; round: number; kind: ByeKind; points: number }>(a);
      if (b.round === round && !out.has(b.player)) out.set(b.player, { rank: b.player, kind: b.kind, why: `a requested ${b.points}-point bye (${a.arbiter})` });
    } else if (a.action === LATE_ENTRY) {
      const e = payloadOf<{ player: Player; fromRound: number }>(a);
      if (e.fromRound > round) out.set(e.player.rank, { rank: e.player.rank, kind: 'Z', why: `a late entry from round ${e.fromRound} (${a.arbiter})` });
    }
  }
  return [...out.values()].sort((x, y) => x.rank - y.rank);
}

/** The start of `round` the arbiter set last, or null. */
export function roundStartOf(journal: Journal, event: TournamentEvent, round: number): number | null {
  const set = entryRows(journal, event.id).filter((a) => a.action === ROUND_START && payloadOf<{ round: number }>(a).round === round);
  return set.length ? payloadOf<{ startUtcMs: number }>(set.at(-1)!).startUtcMs : null;
}

/** How many entries the event has: a pairing made before a new one is stale. */
export function entryCount(journal: Journal, eventId: string): number {
  return entryRows(journal, eventId).length;
}

/**
 * The round as it is proposed: its pairings must leave every absent player unpaired; each gets
 * the bye of its absence (a bye the pairing program already wrote must be that one); the start
 * time the arbiter set is the round's. Throws EntryError (422) naming the player and the entry.
 */
export function withEntries(journal: Journal, event: TournamentEvent, round: Round): Round {
  const absences = roundAbsences(journal, event, round.number);
  const byes = [...round.byes];
  for (const a of absences) {
    const board = round.boards.find((b) => b.white === a.rank || b.black === a.rank);
    if (board) throw new EntryError(422, `round ${round.number} board ${board.board} pairs player ${a.rank}, who is absent: ${a.why}`);
    const given = byes.findIndex((b) => b.player === a.rank);
    if (given >= 0 && byes[given].kind !== a.kind)
      throw new EntryError(422, `round ${round.number} gives player ${a.rank} the bye ${byes[given].kind}; the journal has ${a.kind}: ${a.why}`);
    if (given < 0) byes.push({ player: a.rank, team: null, kind: a.kind });
  }
  const start = roundStartOf(journal, event, round.number);
  return { ...round, byes, ...(start !== null ? { startUtcMs: start } : {}) };
}

export interface EntriesDeps {
  journal: Journal;
  hall: Hall;
  /** The proposal of an event's round waiting for an arbiter's decision, if any (NextRounds.pendingProposal). */
  pendingProposal: (eventId: string, round: number) => { id: number; source: string } | null;
  nowUtcMs: () => number;
  log: (line: string) => void;
}

/** The arbiter's entries in a running host: checked, journaled with who made them, applied. */
export class Entries {
  constructor(private readonly deps: EntriesDeps) {}

  private event(eventId: string): TournamentEvent {
    const event = this.deps.hall.events.find((e) => e.id === eventId);
    if (!event) throw new EntryError(404, `no event "${eventId}" in the tournament (events: ${this.deps.hall.events.map((e) => e.id).join(', ')})`);
    return event;
  }

  /** Refused unless `round` is a round of the event still to pair. */
  private unpaired(event: TournamentEvent, round: number, what: string): void {
    if (!Number.isInteger(round) || round < 1 || round > event.plannedRounds)
      throw new EntryError(422, `${what}: event "${event.id}" has rounds 1-${event.plannedRounds} (plannedRounds), not ${round}`);
    if (round <= event.rounds.length)
      throw new EntryError(409, `${what}: event "${event.id}" round ${round} is already paired; an entry changes only rounds not paired yet`);
    const pending = this.deps.pendingProposal(event.id, round);
    if (pending)
      throw new EntryError(
        409,
        `${what}: event "${event.id}" round ${round} is proposed (journal action ${pending.id}, ${pending.source}): reject the proposal first, then pair the round again`,
      );
  }

  private individual(event: TournamentEvent, what: string): void {
    if (event.kind !== 'individual')
      throw new EntryError(409, `${what}: event "${event.id}" is a ${event.kind} event; entries are for an individual event's players`);
  }

  private player(event: TournamentEvent, rank: number, what: string): Player {
    const p = event.players.find((x) => x.rank === rank);
    if (!p) throw new EntryError(422, `${what}: event "${event.id}" has no player with starting rank ${rank}`);
    return p;
  }

  private record(event: TournamentEvent, action: string, round: number, payload: unknown, arbiter: string): number {
    return this.deps.journal.recordArbiterAction({ utcMs: this.deps.nowUtcMs(), arbiter, action, event: event.id, round, payload, outcome: 'applied' });
  }

  /** Applies one entry (journaled with `arbiter`); throws EntryError with the reason, leaving everything as it was. */
  enter(eventId: string, command: EntryCommand, arbiter: string): EntriesView {
    const event = this.event(eventId);
    const next = event.rounds.length + 1;
    switch (command.type) {
      case 'late-entry':
        this.lateEntry(event, command.player, command.fromRound ?? next, arbiter);
        break;
      case 'withdraw': {
        const what = `the withdrawal of player ${command.player}`;
        this.individual(event, what);
        this.player(event, command.player, what);
        const fromRound = command.fromRound ?? next;
        this.unpaired(event, fromRound, what);
        const before = this.withdrawal(event, command.player);
        if (before) throw new EntryError(409, `${what}: already withdrawn from round ${before.fromRound} on (by ${before.by})`);
        this.record(event, WITHDRAW, fromRound, { player: command.player, fromRound }, arbiter);
        this.deps.log(`${event.id}: player ${command.player} withdrawn from round ${fromRound} on by ${arbiter}`);
        break;
      }
      case 'bye':
        this.requestBye(event, command.player, command.round, command.points ?? DEFAULT_REQUESTED_BYE_POINTS, arbiter);
        break;
      case 'round-start': {
        const what = `the start of round ${command.round}`;
        this.unpaired(event, command.round, what);
        if (!Number.isSafeInteger(command.startUtcMs)) throw new EntryError(422, `${what}: not a time (${command.startUtcMs})`);
        this.record(event, ROUND_START, command.round, { round: command.round, startUtcMs: command.startUtcMs }, arbiter);
        this.deps.log(`${event.id} round ${command.round}: starts ${new Date(command.startUtcMs).toISOString()} (set by ${arbiter})`);
        break;
      }
    }
    return this.view(eventId);
  }

  private lateEntry(event: TournamentEvent, raw: Record<string, unknown>, fromRound: number, arbiter: string): void {
    const what = `the late entry of ${typeof raw.name === 'string' ? `"${raw.name}"` : 'a player'}`;
    this.individual(event, what);
    this.unpaired(event, fromRound, what);
    // The file's own player reading (host/domain/tournament-file/players.ts): the same fields, widths and messages.
    const rank = raw.rank ?? Math.max(0, ...event.players.map((p) => p.rank)) + 1;
    const c = new FieldChecker();
    const player = parsePlayer(c, { ...raw, rank }, 'player');
    if (c.issues.length || !player) throw new EntryError(422, `${what}: ${c.issues.join('; ')}`);
    if (player.team !== null) throw new EntryError(422, `${what}: player.team: an individual event's player has no team`);
    const taken = event.players.find((p) => p.rank === player.rank);
    if (taken) throw new EntryError(409, `${what}: starting rank ${player.rank} is ${taken.name}'s (leave "rank" out for the next free one)`);
    this.record(event, LATE_ENTRY, fromRound, { player, fromRound }, arbiter);
    event.players.push(player);
    this.deps.log(`${event.id}: ${player.name} entered late as player ${player.rank}, from round ${fromRound} (by ${arbiter})`);
  }

  private requestBye(event: TournamentEvent, rank: number, round: number, points: number, arbiter: string): void {
    const what = `the requested bye of player ${rank} in round ${round}`;
    this.individual(event, what);
    this.player(event, rank, what);
    this.unpaired(event, round, what);
    const kind = BYE_CODE.get(points);
    if (!kind) throw new EntryError(422, `${what}: points must be 0, 0.5 or 1 (TRF16 byes Z, H, F), got ${points}`);
    const absent = roundAbsences(this.deps.journal, event, round).find((a) => a.rank === rank);
    if (absent) throw new EntryError(409, `${what}: player ${rank} is already absent from round ${round}: ${absent.why}`);
    this.record(event, REQUESTED_BYE, round, { player: rank, round, points, kind }, arbiter);
    this.deps.log(`${event.id} round ${round}: player ${rank} has a requested ${points}-point bye (${kind}), entered by ${arbiter}`);
  }

  private withdrawal(event: TournamentEvent, rank: number): { fromRound: number; by: string } | null {
    const a = entryRows(this.deps.journal, event.id).find((r) => r.action === WITHDRAW && payloadOf<{ player: number }>(r).player === rank);
    return a ? { fromRound: payloadOf<{ fromRound: number }>(a).fromRound, by: a.arbiter } : null;
  }

  /** The event's entries as the arbiter reads them, each with who made it and when. */
  view(eventId: string): EntriesView {
    const event = this.event(eventId);
    const name = (rank: number) => event.players.find((p) => p.rank === rank)?.name ?? `#${rank}`;
    const view: EntriesView = { event: event.id, nextRound: event.rounds.length + 1, lateEntries: [], withdrawals: [], byes: [], roundStarts: [] };
    for (const a of entryRows(this.deps.journal, event.id)) {
      const made = { id: a.id, by: a.arbiter, atUtcMs: a.utcMs };
      if (a.action === LATE_ENTRY) {
        const e = payloadOf<{ player: Player; fromRound: number }>(a);
        view.lateEntries.push({ ...made, player: e.player, fromRound: e.fromRound });
      } else if (a.action === WITHDRAW) {
        const w = payloadOf<{ player: number; fromRound: number }>(a);
        view.withdrawals.push({ ...made, player: { rank: w.player, name: name(w.player) }, fromRound: w.fromRound });
      } else if (a.action === REQUESTED_BYE) {
        const b = payloadOf<{ player: number; round: number; points: number; kind: ByeKind }>(a);
        view.byes.push({ ...made, player: { rank: b.player, name: name(b.player) }, round: b.round, points: b.points, kind: b.kind });
      } else {
        const s = payloadOf<{ round: number; startUtcMs: number }>(a);
        view.roundStarts.push({ ...made, round: s.round, startUtcMs: s.startUtcMs });
      }
    }
    return view;
  }
}
