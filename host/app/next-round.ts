// The next round of a Swiss event in a running host (docs/tournament.md "Pairing the next round"):
// pairings proposed by the event's pairing engine (run after the round's last result is
// confirmed; round 1, when the file lists none, when the host starts, with the initial colour
// drawn by lot) or loaded from a pairing program's TRF, shown to the arbiter, and opened only when
// an arbiter approves them. Nothing is opened without that approval.
//
// Journaled like the director's lots (director.ts `draw-lot`), as proposal-records.ts says.
//
// Running an engine and reading a TRF are the adapters' work (host/adapters/exports/next-round.ts),
// handed in as a `NextRoundPairing` by the composition (host/start-host.ts).

import { randomInt } from 'node:crypto';
import type { Journal } from '../store/journal.ts';
import {
  allProposalRecords,
  proposalRecords,
  APPROVE_ROUND,
  failedEngineRun,
  PROPOSE_ROUND,
  REJECT_ROUND,
  type EngineRun,
  type InitialColour,
  type ProposalRecord,
  type RoundProposal,
} from './proposal-records.ts';
import { completedRounds } from './round-games.ts';
import { entryCount, EntryError, withEntries } from './entries.ts';
import { findEvent, type Hall, type Round, type TournamentEvent } from '../domain/model.ts';
import type { RoundProposalView, RoundWaitingView } from './ports.ts';

/** A refusal, with the HTTP status the API answers it with. */
export class NextRoundError extends Error {
  constructor(
    readonly status: 404 | 409 | 422 | 501,
    message: string,
  ) {
    super(message);
    this.name = 'NextRoundError';
  }
}

/** What pairs a next round: the adapters' engine runner and TRF reader (host/adapters/exports/next-round.ts). */
export interface NextRoundPairing {
  /**
   * Runs the event's engine on its TRF after `afterRound` (0: the file before round 1, the players'
   * initial ranking). Never throws for the engine's faults: they are in the run. `signal`: the host
   * is stopping; the engine is killed. `initialColour`: round 1's colour by lot of the top player,
   * written to the TRF for the engine (JaVaFo's XXC).
   */
  runEngine(event: TournamentEvent, afterRound: number, signal?: AbortSignal, options?: { initialColour?: InitialColour }): Promise<EngineRun>;
  /**
   * The round after `afterRound` from a pairing program's TRF, checked against the journal; with
   * `pairs`, from its pairs list (`-p`) and `text` the TRF it was paired from. Throws naming line and field.
   */
  roundFromTrf(event: TournamentEvent, afterRound: number, text: string, pairs?: string): Round;
}

/** An entry's refusal (entries.ts) as the next round's (the same status and reason). */
function entriesChecked<T>(body: () => T): T {
  try {
    return body();
  } catch (err) {
    if (err instanceof EntryError) throw new NextRoundError(err.status, err.message);
    throw err;
  }
}

/** The confirmed results of rounds 1..n, as a proposal's basis. */
function basisOf(journal: Journal, event: TournamentEvent, upTo: number): string[] {
  return journal
    .gamesByEvent(event.id)
    .filter((g) => g.round <= upTo)
    .map((g) => `${g.round}.${g.board}.${g.gameNo} ${g.confirmedBy !== null ? g.result : 'unconfirmed'}`);
}

/** The first difference between two bases, in words. */
function basisChange(before: string[], now: string[]): string | null {
  const was = new Map(before.map((b) => [b.split(' ')[0], b.split(' ')[1]]));
  for (const line of now) {
    const [key, result] = line.split(' ');
    const [round, board] = key.split('.');
    if (!was.has(key)) return `round ${round} board ${board} was added`;
    if (was.get(key) !== result) return `round ${round} board ${board}: ${was.get(key)}, now ${result}`;
    was.delete(key);
  }
  const gone = [...was.keys()][0];
  return gone === undefined ? null : `round ${gone.split('.')[0]} board ${gone.split('.')[1]} is gone`;
}

/**
 * A round's pairings are sound: every starting rank is a player of the event, nobody plays
 * themselves, nobody is paired twice. (The adapters check the same with the file's line numbers;
 * this is the app's own guard, whatever hands a round in.)
 */
export function checkRoundPairings(event: TournamentEvent, round: Round): void {
  const ranks = new Set(event.players.map((p) => p.rank));
  const seen = new Map<number, string>();
  const use = (rank: number, where: string) => {
    if (!ranks.has(rank))
      throw new NextRoundError(422, `${where}: player ${rank} is not in event "${event.id}" (starting ranks ${Math.min(...ranks)}-${Math.max(...ranks)})`);
    if (seen.has(rank)) throw new NextRoundError(422, `${where}: player ${rank} is paired twice (also ${seen.get(rank)})`);
    seen.set(rank, where);
  };
  for (const b of round.boards) {
    use(b.white, `board ${b.board}`);
    use(b.black, `board ${b.board}`);
  }
  for (const bye of round.byes) {
    if (bye.player !== null) use(bye.player, `the bye of player ${bye.player}`);
    else for (const p of event.teams.find((t) => t.id === bye.team)?.players ?? []) use(p, `the bye of team ${bye.team}`);
  }
}

export interface NextRoundsDeps {
  journal: Journal;
  hall: Hall;
  /** The adapters' engine runner and TRF reader; null: neither is available on this host (501). */
  pairing: NextRoundPairing | null;
  /** Opens an approved round (the director's openRound), inside the approval's transaction. */
  openRound: (eventId: string, round: number, nowUtcMs: number) => void;
  nowUtcMs: () => number;
  log: (line: string) => void;
  /** The lot for round 1's initial colour: 0 White, 1 Black (default: a fresh `crypto.randomInt(2)`). */
  drawLot?: () => 0 | 1;
}

/** Who signs the engine runs the host starts by itself (after a round's last confirmation). */
export const AUTO_PAIRING_ACTOR = 'host';

export class NextRounds {
  /** The engine runs under way, by event. */
  private readonly running = new Map<string, { round: number; since: number; done: Promise<RoundProposalView> }>();
  /** Aborted when the host stops: engines under way are killed and their runs not filed. */
  private readonly stopping = new AbortController();

  constructor(private readonly deps: NextRoundsDeps) {}

  private event(eventId: string): TournamentEvent {
    const event = this.deps.hall.events.find((e) => e.id === eventId);
    if (!event) throw new NextRoundError(404, `no event "${eventId}" in the tournament (events: ${this.deps.hall.events.map((e) => e.id).join(', ')})`);
    return event;
  }

  /** The round to pair next and the one it follows; refused while a round is not finished or the event is complete. */
  private nextRoundOf(event: TournamentEvent): { next: number; after: number } {
    if (event.kind === 'knockout') throw new NextRoundError(409, `event "${event.id}" is a knockout: the director pairs its matches from the file`);
    const after = event.rounds.length;
    if (after >= event.plannedRounds) throw new NextRoundError(409, `event "${event.id}" has all its ${event.plannedRounds} planned rounds (plannedRounds)`);
    const done = completedRounds(this.deps.journal, event);
    if (done < after) {
      throw new NextRoundError(
        409,
        `event "${event.id}" round ${done + 1} is not finished: the next round is paired after every result of round ${after} is confirmed`,
      );
    }
    return { next: after + 1, after };
  }

  /** The proposal of `round` waiting for an arbiter's decision, if any (an entry for that round is refused meanwhile: entries.ts). */
  pendingProposal(eventId: string, round: number): { id: number; source: string } | null {
    const p = this.pending(eventId, round);
    return p ? { id: p.id, source: p.proposal.source } : null;
  }

  private pending(eventId: string, round: number): ProposalRecord | null {
    const last = proposalRecords(this.deps.journal, eventId)
      .filter((r) => r.round === round)
      .at(-1);
    return last && last.outcome === 'applied' && last.decision === null ? last : null;
  }

  /** The events whose engine is due to pair their next round: the last round confirmed, nothing proposed for the next yet. */
  dueEngineRuns(): string[] {
    const due: string[] = [];
    for (const event of this.deps.hall.events) {
      if (!event.pairingEngine || this.running.has(event.id)) continue;
      // n = 0: round 1 is due as soon as the host starts with the event's players (their initial ranking).
      const n = event.rounds.length;
      if (n >= event.plannedRounds || completedRounds(this.deps.journal, event) < n) continue;
      // Once per round: a failed or rejected run is run again only when the arbiter asks (Re-run).
      if (proposalRecords(this.deps.journal, event.id).some((r) => r.round === n + 1)) continue;
      due.push(event.id);
    }
    return due;
  }

  /**
   * Runs the event's engine for its next round and journals the run: its pairings as a proposal
   * (applied), or the failure (rejected) with the engine's command, input, output, stderr and exit
   * code. `rerun`: a pending proposal of that round is rejected first (journaled with `by`).
   * Resolves to the proposal (status `proposed` or `failed`); refusals throw NextRoundError.
   */
  runEngine(eventId: string, by: string, options: { rerun?: boolean } = {}): Promise<RoundProposalView> {
    const event = this.event(eventId);
    if (!event.pairingEngine)
      throw new NextRoundError(409, `event "${eventId}" names no pairing engine (tournament file "pairingEngine"); load the round from a TRF instead`);
    if (!this.deps.pairing) throw new NextRoundError(501, 'this host cannot run a pairing engine');
    if (this.stopping.signal.aborted) throw new NextRoundError(409, 'the host is stopping');
    const busy = this.running.get(eventId);
    if (busy) throw new NextRoundError(409, `the pairing engine is already pairing event "${eventId}" round ${busy.round}`);
    const { next, after } = this.nextRoundOf(event);
    const pending = this.pending(eventId, next);
    if (pending && !options.rerun)
      throw new NextRoundError(
        409,
        `event "${eventId}" round ${next} already has proposed pairings (${pending.proposal.source}, journal action ${pending.id}): approve or reject them`,
      );
    if (pending) this.decide(pending, REJECT_ROUND, by, `re-run of the pairing engine by ${by}`);
    const basis = basisOf(this.deps.journal, event, after);
    const entries = entryCount(this.deps.journal, eventId);
    const pairing = this.deps.pairing;
    const since = this.deps.nowUtcMs();
    const initialColour = after === 0 ? this.initialColourOf(event) : undefined;
    const done = (async () => {
      try {
        const run = await pairing
          .runEngine(event, after, this.stopping.signal, initialColour ? { initialColour: initialColour.colour } : {})
          .catch((err: Error) => failedEngineRun(event.pairingEngine!.command, `the engine could not be run: ${err.message}`));
        // Not filed: the host that starts next on this journal finds the round due and runs the engine again.
        if (this.stopping.signal.aborted)
          throw new NextRoundError(
            409,
            `the host stopped while the pairing engine paired event "${eventId}" round ${next}; it runs again when the host starts`,
          );
        return this.fileEngineRun(event, { next, after, basis, entries }, run, by, initialColour);
      } finally {
        this.running.delete(eventId);
      }
    })();
    this.running.set(eventId, { round: next, since, done });
    return done;
  }

  /**
   * Round 1's initial colour: the arbiter's draw in the tournament file (`pairingEngine.initialColour`);
   * else the one the host drew for the event's first engine run, journaled with it, so that a re-run
   * (a late entry corrected, a failed run) pairs with the same lot instead of drawing until the
   * colours suit someone; else a fresh cryptographic draw, journaled with this run.
   */
  private initialColourOf(event: TournamentEvent): { colour: InitialColour; by: 'host' | 'arbiter' } {
    const entered = event.pairingEngine?.initialColour;
    if (entered) return { colour: entered, by: 'arbiter' };
    const drawn = proposalRecords(this.deps.journal, event.id).find(
      (r) => r.round === 1 && r.proposal.initialColour && r.proposal.initialColourDrawnBy !== 'arbiter',
    )?.proposal.initialColour;
    if (drawn) return { colour: drawn, by: 'host' };
    return { colour: (this.deps.drawLot?.() ?? randomInt(2)) === 0 ? 'white' : 'black', by: 'host' };
  }

  private fileEngineRun(
    event: TournamentEvent,
    at: { next: number; after: number; basis: string[]; entries: number },
    run: EngineRun,
    by: string,
    initialColour?: { colour: InitialColour; by: 'host' | 'arbiter' },
  ): RoundProposalView {
    const { next, after, basis } = at;
    const { error, ...engine } = run;
    let round = run.round;
    let reason = error;
    if (round && !reason) {
      try {
        checkRoundPairings(event, round);
        // The absent players' byes and the round's start (entries.ts); an absent player paired is refused.
        round = withEntries(this.deps.journal, event, { ...round, number: next });
      } catch (err) {
        reason = `the engine's pairings: ${(err as Error).message}`;
      }
    }
    if (!reason && entryCount(this.deps.journal, event.id) !== at.entries) reason = 'an entry was made while the engine ran: run it again';
    // The state the engine was run on must still stand when its answer comes back.
    if (!reason && event.rounds.length !== after) reason = `round ${next} was opened while the engine ran`;
    if (!reason && this.pending(event.id, next)) reason = `round ${next} was proposed from elsewhere while the engine ran`;
    const changed = reason ? null : basisChange(basis, basisOf(this.deps.journal, event, after));
    if (changed) reason = `the results changed while the engine ran (${changed}): run it again`;
    const proposal: RoundProposal = {
      source: 'engine',
      ...(initialColour ? { initialColour: initialColour.colour, initialColourDrawnBy: initialColour.by } : {}),
      round: reason ? null : { ...round!, number: next },
      basis,
      engine,
    };
    const id = this.deps.journal.recordArbiterAction({
      utcMs: this.deps.nowUtcMs(),
      arbiter: by,
      action: PROPOSE_ROUND,
      event: event.id,
      round: next,
      payload: proposal,
      outcome: reason ? 'rejected' : 'applied',
      reason,
    });
    this.deps.log(
      reason
        ? `${event.id} round ${next}: the pairing engine gave no pairings: ${reason}`
        : `${event.id} round ${next}: pairings proposed by the engine; waiting for an arbiter's approval`,
    );
    return this.view(proposalRecords(this.deps.journal, event.id).find((r) => r.id === id)!);
  }

  /**
   * A pairing program's TRF with the next round paired, or (`pairs`) its pairs list and the TRF it
   * was paired from: checked against the journal and filed as a proposal.
   */
  proposeFromTrf(eventId: string, text: string, arbiter: string, pairs?: string): RoundProposalView {
    const event = this.event(eventId);
    if (!this.deps.pairing) throw new NextRoundError(501, 'this host cannot read a TRF');
    const { next, after } = this.nextRoundOf(event);
    const pending = this.pending(eventId, next);
    if (pending)
      throw new NextRoundError(
        409,
        `event "${eventId}" round ${next} already has proposed pairings (${pending.proposal.source}, journal action ${pending.id}): approve or reject them first`,
      );
    if (this.running.has(eventId))
      throw new NextRoundError(409, `the pairing engine is pairing event "${eventId}" round ${next} now: wait for it, then reject its pairings to load yours`);
    const paired = { ...this.deps.pairing.roundFromTrf(event, after, text, pairs), number: next };
    checkRoundPairings(event, paired);
    const round = entriesChecked(() => withEntries(this.deps.journal, event, paired));
    const basis = basisOf(this.deps.journal, event, after);
    const proposal: RoundProposal = pairs === undefined ? { source: 'trf', round, basis, trf: text } : { source: 'pairs', round, basis, trf: text, pairs };
    const id = this.deps.journal.recordArbiterAction({
      utcMs: this.deps.nowUtcMs(),
      arbiter,
      action: PROPOSE_ROUND,
      event: eventId,
      round: next,
      payload: proposal,
      outcome: 'applied',
    });
    this.deps.log(
      `${eventId} round ${next}: pairings loaded from ${pairs === undefined ? 'a TRF' : 'a pairs list'} by ${arbiter}; waiting for an arbiter's approval`,
    );
    return this.view(proposalRecords(this.deps.journal, eventId).find((r) => r.id === id)!);
  }

  /**
   * The arbiter approves the proposed pairings: journaled with the arbiter's name, the round added
   * to the event and opened (one journal game per board), all in one transaction. Refused when
   * nothing is proposed for that round or a result the pairings were made from changed since.
   */
  approve(eventId: string, round: number, arbiter: string): Round {
    const event = this.event(eventId);
    const { next, after } = this.nextRoundOf(event);
    const pending = round === next ? this.pending(eventId, next) : null;
    if (!pending)
      throw new NextRoundError(
        409,
        `event "${eventId}" has no proposed pairings for round ${round} to approve${round === next ? '' : ` (the next round is ${next})`}`,
      );
    const changed = basisChange(pending.proposal.basis, basisOf(this.deps.journal, event, after));
    if (changed) throw new NextRoundError(409, `the results changed since round ${next} was proposed (${changed}): reject these pairings and pair again`);
    const paired: Round = { ...pending.proposal.round!, number: next };
    const now = this.deps.nowUtcMs();
    try {
      this.deps.journal.transaction(() => {
        this.decide(pending, APPROVE_ROUND, arbiter, null, now);
        event.rounds.push(paired);
        this.deps.openRound(eventId, next, now);
      });
    } catch (err) {
      // The transaction rolled back (the director refused, or the commit failed): the hall must too.
      const at = event.rounds.indexOf(paired);
      if (at >= 0) event.rounds.splice(at, 1);
      throw err;
    }
    this.deps.log(`${eventId} round ${next}: pairings approved by ${arbiter}; round opened`);
    return paired;
  }

  /** The arbiter sets the proposed pairings aside (journaled with why); the round stays unpaired until another proposal is approved. */
  reject(eventId: string, round: number, arbiter: string, reason: string | null): void {
    const event = this.event(eventId);
    const next = event.rounds.length + 1;
    const pending = round === next ? this.pending(eventId, next) : null;
    if (!pending) throw new NextRoundError(409, `event "${eventId}" has no proposed pairings for round ${round} to reject`);
    this.decide(pending, REJECT_ROUND, arbiter, reason);
    this.deps.log(`${eventId} round ${next}: pairings rejected by ${arbiter}${reason ? ` (${reason})` : ''}`);
  }

  private decide(
    record: ProposalRecord,
    action: typeof APPROVE_ROUND | typeof REJECT_ROUND,
    by: string,
    reason: string | null,
    now = this.deps.nowUtcMs(),
  ): void {
    this.deps.journal.recordArbiterAction({
      utcMs: now,
      arbiter: by,
      action,
      event: record.event,
      round: record.round,
      payload: { proposal: record.id },
      outcome: 'applied',
      reason,
    });
  }

  /** What waits for the arbiter: per event, the next round's proposal (or failed run), or the engine at work. */
  views(): RoundProposalView[] {
    const out: RoundProposalView[] = [];
    const records = allProposalRecords(this.deps.journal);
    for (const event of this.deps.hall.events) {
      const next = event.rounds.length + 1;
      const busy = this.running.get(event.id);
      if (busy) {
        out.push({
          id: null,
          event: event.id,
          round: busy.round,
          status: 'running',
          source: 'engine',
          by: null,
          atUtcMs: busy.since,
          boards: [],
          byes: [],
          canRunEngine: false,
        });
        continue;
      }
      // The last proposal of the next round: pending, failed, or rejected (the arbiter re-runs or loads a TRF).
      const last = (records.get(event.id) ?? []).filter((r) => r.round === next).at(-1);
      if (last && last.decision?.action !== 'approve') out.push(this.view(last));
    }
    return out;
  }

  /**
   * The Swiss events whose next round waits for pairings: rounds to come, every result of the
   * last round confirmed (round 1: none paired yet), no engine at work and no proposal pending.
   */
  waiting(): RoundWaitingView[] {
    return this.deps.hall.events
      .filter((event) => {
        const n = event.rounds.length;
        if (event.kind === 'knockout' || n >= event.plannedRounds || this.running.has(event.id)) return false;
        return completedRounds(this.deps.journal, event) >= n && this.pending(event.id, n + 1) === null;
      })
      .map((event) => ({ event: event.id, eventName: event.name, round: event.rounds.length + 1 }));
  }

  /** The host is stopping: engines under way are killed, and no engine is started any more. */
  stop(): void {
    this.stopping.abort();
  }

  /** Resolves when every engine run under way has been journaled. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  private view(r: ProposalRecord): RoundProposalView {
    const event = findEvent(this.deps.hall, r.event);
    const name = (rank: number) => event.players.find((p) => p.rank === rank)?.name ?? `#${rank}`;
    const round = r.proposal.round;
    const engine = r.proposal.engine;
    return {
      id: r.id,
      event: r.event,
      round: r.round,
      status: r.outcome === 'rejected' ? 'failed' : r.decision?.action === 'reject' ? 'rejected' : 'proposed',
      ...(r.decision?.action === 'reject' ? { rejected: { by: r.decision.by, atUtcMs: r.decision.atUtcMs, reason: r.decision.reason } } : {}),
      source: r.proposal.source,
      by: r.by,
      atUtcMs: r.atUtcMs,
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.proposal.initialColour ? { initialColour: r.proposal.initialColour, initialColourDrawnBy: r.proposal.initialColourDrawnBy ?? 'host' } : {}),
      ...(engine
        ? { engine: { command: engine.command, exitCode: engine.exitCode, signal: engine.signal, stderr: engine.stderr, durationMs: engine.durationMs } }
        : {}),
      boards: (round?.boards ?? []).map((b) => ({
        board: b.board,
        white: { rank: b.white, name: name(b.white) },
        black: { rank: b.black, name: name(b.black) },
      })),
      byes: (round?.byes ?? []).map((b) => ({
        kind: b.kind,
        ...(b.player !== null ? { player: { rank: b.player, name: name(b.player) } } : {}),
        ...(b.team !== null ? { team: { id: b.team, name: event.teams.find((t) => t.id === b.team)?.name ?? `#${b.team}` } } : {}),
      })),
      canRunEngine: Boolean(event.pairingEngine),
    };
  }
}
