// A pairing program's pairs list as the next round (docs/tournament.md "An event with an outside
// pairing program"): bbpPairings and JaVaFo write their pairings with `-p OUT.txt` (the number of
// pairs, then `white black` by starting rank, `0` for the pairing-allocated bye; `parsePairsFile`),
// which names neither the round nor the players. The TRF it was paired from gives both: its 001
// lines are the players the ranks mean, and the round paired is the one after its rounds played.
//
// A player the TRF already places in that round — a field `0000 - H` (a requested half-point bye),
// `F`/`U` (a full point), `Z`, `-` or blank (absent, no points) in the round's column, the way
// bbpPairings takes a player out of the round it pairs — is not in the pairs list: the round keeps
// their bye (H F U Z) or leaves them out. Every other player of the TRF must be paired or get the bye.

import type { BoardPairing, Bye, ByeKind, Round } from '../../domain/model.ts';
import type { TrfFile, TrfPlayerLine, TrfRound } from './trf-parser.ts';
import { parsePairsFile, TrfImportError } from './trf-import.ts';

const BYE_CODES: readonly string[] = ['H', 'F', 'U', 'Z'];

/** The TRF's rounds played, and the round a pairing program pairs from it (a last column holding only byes and absences is that round's). */
export function roundsPlayed(file: TrfFile): { played: number; next: number } {
  const columns = Math.max(0, ...file.players.map((p) => p.rounds.length));
  const last = columns - 1;
  const presetOnly = columns > 0 && file.players.every((p) => !p.rounds[last] || p.rounds[last].opponent === null);
  return presetOnly ? { played: last, next: columns } : { played: columns, next: columns + 1 };
}

/** The field of a player's line in the round being paired, when the TRF gives one (a bye or an absence set before the pairing). */
function presetField(p: TrfPlayerLine, next: number): TrfRound | null {
  return p.rounds[next - 1] ?? null;
}

const presetText = (f: TrfRound) => `"0000 - ${f.code === ' ' ? ' ' : f.code}"`;

/**
 * The round a pairs list gives, read against the TRF it was paired from: every starting rank a 001
 * line of the TRF, nobody paired twice or against themselves, nobody paired whom the TRF sets out of
 * the round, everybody else paired or given the bye. Boards in the list's order (board 1 first).
 * Errors name the pairs file's line (`pairs file line 4: player 17 is not in the TRF …`).
 */
export function pairsRound(file: TrfFile, pairsText: string): Round {
  if (file.players.length === 0) throw new TrfImportError('the TRF the pairs were made from has no 001 player lines');
  const { next } = roundsPlayed(file);
  const planned = Number(file.tags.get('142')?.[0] ?? file.xxr ?? 0) || null;
  if (planned !== null && next > planned)
    throw new TrfImportError(`the TRF has all its ${planned} planned rounds (tag 142/XXR): there is no round ${next} to pair`);
  const byRank = new Map(file.players.map((p) => [p.rank, p]));
  const ranks = [...byRank.keys()];
  const boards: BoardPairing[] = [];
  const byes: Bye[] = [];
  parsePairsFile(pairsText).forEach((pair, i) => {
    const line = `pairs file line ${i + 2}`;
    for (const rank of [pair.white, pair.black]) {
      if (rank === null) continue;
      const p = byRank.get(rank);
      if (!p)
        throw new TrfImportError(`${line}: player ${rank} is not in the TRF (its 001 lines have starting ranks ${Math.min(...ranks)}-${Math.max(...ranks)})`);
      const preset = presetField(p, next);
      if (preset)
        throw new TrfImportError(
          `${line}: player ${rank} (${p.name}) is paired, but the TRF (line ${p.line}) sets them out of round ${next} with ${presetText(preset)}`,
        );
    }
    if (pair.black === pair.white) throw new TrfImportError(`${line}: player ${pair.white} is paired with themselves`);
    if (pair.black === null) byes.push({ player: pair.white, team: null, kind: 'U' });
    else boards.push({ board: boards.length + 1, white: pair.white, black: pair.black });
  });
  const listed = new Set([...boards.flatMap((b) => [b.white, b.black]), ...byes.map((b) => b.player)]);
  const missing: string[] = [];
  for (const p of file.players) {
    if (listed.has(p.rank)) continue;
    const preset = presetField(p, next);
    if (!preset) missing.push(`player ${p.rank} (${p.name}, TRF line ${p.line})`);
    else if (BYE_CODES.includes(preset.code)) byes.push({ player: p.rank, team: null, kind: preset.code as ByeKind });
  }
  if (missing.length)
    throw new TrfImportError(
      `pairs file: ${missing.join(', ')} neither paired nor given the bye, and the TRF gives them no entry in round ${next} (a requested bye or an absence: 0000 - H, 0000 - Z): was the list paired from another TRF?`,
    );
  return { number: next, date: null, startUtcMs: null, boards, teamMatches: [], knockout: [], byes };
}
