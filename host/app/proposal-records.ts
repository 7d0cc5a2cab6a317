// The next round's proposals as the journal holds them (docs/tournament.md "Pairing the next
// round"): every step is an arbiter action of the event and round, so the journal alone says what
// happened and a restarted host continues:
//
//   propose-round  applied: the pairings (payload `round`), where they came from (`source`:
//                  `engine` with its command, input TRF, output, stderr and exit code; `trf` with
//                  the text loaded; `pairs` with the pairs list and the TRF it was paired from) and
//                  the confirmed results they were made from (`basis`);
//                  rejected: an engine run that gave no pairings, with the same record and why.
//   approve-round  the arbiter who opened the round (payload `proposal`: the propose-round id).
//   reject-round   the arbiter who set the pairings aside, and why (`reason`).
//
// The approved rounds are the event's rounds after the file's: `restoreApprovedRounds` adds them
// to the hall when a director is built on the journal (a restarted host, `chessclock export`).
// The proposals themselves are made and decided by next-round.ts.
import type { ArbiterActionRow, Journal } from '../store/journal.ts';
import type { Hall, Round } from '../domain/model.ts';

export const PROPOSE_ROUND = 'propose-round';
export const APPROVE_ROUND = 'approve-round';
export const REJECT_ROUND = 'reject-round';

/** One run of a pairing engine, as the adapter reports it: what was run, on what, and what came out. */
export interface EngineRun {
  /** The command as run, the input and output files included. */
  command: string[];
  /** The TRF given to the engine (null when it could not be written). */
  input: string | null;
  /** The engine's pairs file (null when it wrote none). */
  output: string | null;
  /** The engine's standard error (the end of it when long). */
  stderr: string;
  exitCode: number | null;
  /** The signal that stopped it (the time limit: SIGKILL), else null. */
  signal: string | null;
  durationMs: number;
  /** The pairings read from `output`, or null with `error` saying why there are none. */
  round: Round | null;
  error: string | null;
}

/** A run that never reached the engine (its input could not be written, or it could not be started): only the reason. */
export function failedEngineRun(command: string[], error: string): EngineRun {
  return { command, input: null, output: null, stderr: '', exitCode: null, signal: null, durationMs: 0, round: null, error };
}

/** The colour of the top-ranked player on board 1 in round 1 (FIDE C.04.3 Dutch rules: the initial colour, by lot). */
export type InitialColour = 'white' | 'black';

/** What a `propose-round` action holds. */
export interface RoundProposal {
  source: 'engine' | 'trf' | 'pairs';
  /** Round 1 by the engine: the initial colour drawn by lot and given to it (the same on every re-run). */
  initialColour?: InitialColour;
  /** Who drew it: `host` (a fresh cryptographic draw) or `arbiter` (entered in the tournament file). */
  initialColourDrawnBy?: 'host' | 'arbiter';
  /** The proposed pairings; null for a failed engine run. */
  round: Round | null;
  /** The confirmed results the pairings were made from, one `round.board.game result` each. */
  basis: string[];
  engine?: Omit<EngineRun, 'round' | 'error'>;
  /** The TRF text loaded (source `trf`), or the one the pairs list was paired from (source `pairs`). */
  trf?: string;
  /** The pairs list loaded (source `pairs`). */
  pairs?: string;
}

/** A journaled proposal and what became of it. */
export interface ProposalRecord {
  id: number;
  event: string;
  round: number;
  by: string;
  atUtcMs: number;
  /** `rejected`: a failed engine run (no pairings). */
  outcome: 'applied' | 'rejected';
  reason: string | null;
  proposal: RoundProposal;
  decision: { action: 'approve' | 'reject'; by: string; atUtcMs: number; reason: string | null } | null;
}

/** Every proposal of an event, in journal order, with the decision taken on it. */
export function proposalRecords(journal: Journal, eventId: string): ProposalRecord[] {
  return allProposalRecords(journal).get(eventId) ?? [];
}

/** The proposals of every event, by event, from one read of the journal's arbiter actions. */
export function allProposalRecords(journal: Journal): Map<string, ProposalRecord[]> {
  const out = new Map<string, ProposalRecord[]>();
  const byId = new Map<number, ProposalRecord>();
  for (const a of journal.arbiterActions()) {
    if (a.event === null) continue;
    if (a.action === PROPOSE_ROUND) {
      const record: ProposalRecord = {
        id: a.id,
        event: a.event,
        round: a.round!,
        by: a.arbiter,
        atUtcMs: a.utcMs,
        outcome: a.outcome,
        reason: a.reason,
        proposal: a.payload as RoundProposal,
        decision: null,
      };
      out.set(a.event, [...(out.get(a.event) ?? []), record]);
      byId.set(a.id, record);
    } else if ((a.action === APPROVE_ROUND || a.action === REJECT_ROUND) && a.outcome === 'applied') {
      const target = byId.get(proposalIdOf(a));
      if (target && !target.decision)
        target.decision = { action: a.action === APPROVE_ROUND ? 'approve' : 'reject', by: a.arbiter, atUtcMs: a.utcMs, reason: a.reason };
    }
  }
  return out;
}

function proposalIdOf(a: ArbiterActionRow): number {
  const id = (a.payload as { proposal?: unknown } | null)?.proposal;
  return typeof id === 'number' ? id : -1;
}

/**
 * Adds every approved round in the journal to its event (after the file's rounds), so that the
 * director, the exports and the standings see the rounds the host opened. Idempotent.
 */
export function restoreApprovedRounds(journal: Journal, hall: Hall): void {
  const records = allProposalRecords(journal);
  for (const event of hall.events) {
    const approved = (records.get(event.id) ?? []).filter(
      (r) => r.decision?.action === 'approve' && r.proposal.round && !event.rounds.some((x) => x.number === r.round),
    );
    if (approved.length === 0) continue;
    for (const r of approved) event.rounds.push({ ...r.proposal.round!, number: r.round });
    event.rounds.sort((a, b) => a.number - b.number);
  }
}
