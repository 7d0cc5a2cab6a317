// A small individual Swiss for the next-round tests (host/app/next-round.test.ts,
// host/adapters/http/next-round-api.test.ts), paired on by the stand-in engine,
// host/adapters/exports/fixtures/stand-in-pairing-engine.mjs, which follows bbpPairings' command
// line (`--dutch IN.trf -p OUT.txt`) and its `-p` output format and fails on demand (the real
// bbpPairings pairs this Swiss in test/trf-bbp-pairings.test.ts).
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Host } from './host.ts';
import { AnchoredClock } from './utc.ts';
import type { GameResult } from '../../rules/vocabulary.ts';

export const ARBITER = 'Ana Srebrnič (IA)';
export const T0 = Date.UTC(2026, 3, 4, 13, 0);
export const STAND_IN_ENGINE = fileURLToPath(new URL('../adapters/exports/fixtures/stand-in-pairing-engine.mjs', import.meta.url));
export const SWISS = 'open-swiss';

/** A 7-player Swiss of 3 planned rounds, round 1 from the file (player 4 has the bye), paired on by the stand-in. */
export function swissTournament(engineArgs: string[] = [], extra: Record<string, unknown> = {}) {
  return {
    hall: { name: 'Test hall', site: 'Ljubljana SLO' },
    events: [
      {
        id: SWISS,
        name: 'Open Swiss',
        kind: 'individual',
        type: 'Swiss Dutch',
        timeControl: 'rapid',
        plannedRounds: 3,
        pairingEngine: { command: [process.execPath, STAND_IN_ENGINE, ...engineArgs, '--dutch'], ...extra },
        players: [
          { rank: 1, name: 'Prvi, Igralec', rating: 2400 },
          { rank: 2, name: 'Drugi, Igralec', rating: 2350 },
          { rank: 3, name: 'Tretji, Igralec', rating: 2300 },
          { rank: 4, name: 'Četrti, Igralec', rating: 2250 },
          { rank: 5, name: 'Peti, Igralec', rating: 2200 },
          { rank: 6, name: 'Šesti, Igralec', rating: 2150 },
          { rank: 7, name: 'Sedmi, Igralec', rating: 2100 },
        ],
        rounds: [
          {
            number: 1,
            date: '2026/04/04',
            boards: [
              { board: 1, white: 1, black: 5 },
              { board: 2, white: 6, black: 2 },
              { board: 3, white: 3, black: 7 },
            ],
            byes: [{ player: 4, kind: 'U' }],
          },
        ],
      },
    ],
  };
}

/** The same Swiss before round 1: no round in the file; the engine pairs round 1 from the starting ranks. */
export function swissBeforeRound1(engineArgs: string[] = [], extra: Record<string, unknown> = {}) {
  const raw = swissTournament(engineArgs, extra);
  raw.events[0].rounds = [];
  return raw;
}

export function stoppedClock(utcMs = T0): AnchoredClock {
  return new AnchoredClock({ now: () => 0, setTimer: () => ({}), clearTimer: () => {} }, { hostMs: 0, utcMs });
}

/** Enters and confirms the results of a round's first boards through the host, as the arbiter does on the dashboard. */
export async function confirmRound(host: Host, round: number, results: GameResult[], event = SWISS): Promise<void> {
  const boards = host.state
    .boards()
    .filter((b) => b.event === event && b.round === round)
    .sort((a, b) => a.board - b.board);
  expect(boards.length).toBeGreaterThanOrEqual(results.length);
  for (const [i, b] of boards.slice(0, results.length).entries()) {
    expect((await host.execute({ type: 'result', boardId: b.id, result: results[i] }, { arbiter: ARBITER })).ok).toBe(true);
    expect((await host.execute({ type: 'confirm-result', boardId: b.id }, { arbiter: ARBITER })).ok).toBe(true);
  }
}

/**
 * A TRF with round `after + 1` added as a pairing program writes it (TRF16 round fields at columns
 * 92 + 10·after …: opponent, colour, the result blank while unplayed; `0000 - U` the bye).
 */
export function addRoundToTrf(
  trf: string,
  after: number,
  pairs: readonly (readonly [number, number])[],
  bye: number | readonly number[] | null,
  edit: (lines: string[]) => void = () => undefined,
  byeCode = 'U',
): string {
  const byes = bye === null ? [] : typeof bye === 'number' ? [bye] : bye;
  const lines = trf.split('\r\n');
  for (const [i, line] of lines.entries()) {
    if (!line.startsWith('001')) continue;
    const rank = Number(line.slice(4, 8));
    const pair = pairs.find((p) => p.includes(rank));
    const field = pair
      ? `${String(pair[0] === rank ? pair[1] : pair[0]).padStart(4)} ${pair[0] === rank ? 'w' : 'b'}  `
      : byes.includes(rank)
        ? `0000 - ${byeCode}`
        : '        ';
    lines[i] = line.padEnd(91 + 10 * after) + field;
  }
  edit(lines);
  return lines.join('\r\n');
}
