// The lots a match shows (GET /api/matches `lots`, drawn on the dashboard's boards): a rehearsal
// with the file's `knockout.seed` shows its colours as `seed`, so it looks like the hall will
// (Slovenian final 2007 art. 3: game 1's colours are drawn by lot).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../store/journal.ts';
import { parseTournament } from '../domain/tournament-file.ts';
import { Director } from './director.ts';
import { JournalPorts } from './journal-ports.ts';
import type { LotView } from './ports.ts';

const EVENT = 'slo-w-2007';
const T0 = Date.UTC(2007, 7, 16, 14, 0);
const journals: Journal[] = [];
afterEach(() => journals.splice(0).forEach((j) => j.close()));

/** The Slovenian final with game 1's colours left to the lot; `seed` kept (a rehearsal) or not. */
function hall(keepSeed: boolean) {
  const raw = JSON.parse(readFileSync(fileURLToPath(new URL('../domain/fixtures/slovenian-final-2007.json', import.meta.url)), 'utf8'));
  const ev = raw.events.find((e: { id: string }) => e.id === EVENT);
  if (!keepSeed) delete ev.knockout.seed;
  for (const k of ev.rounds[0].knockout) delete k.firstWhite;
  return parseTournament(raw);
}

function lotsAfterOpening(keepSeed: boolean): { lots: Map<string, LotView[]>; whites: Map<string, number | null> } {
  const h = hall(keepSeed);
  const journal = new Journal(':memory:');
  journals.push(journal);
  const games = new Director(journal, h).openRound(EVENT, 1, T0);
  const ports = new JournalPorts({ journal, hall: h, nowUtcMs: () => T0 });
  return {
    lots: new Map(ports.matches().map((m) => [m.id, m.lots as LotView[]])),
    whites: new Map(games.map((g) => [g.matchId!, g.whiteRank])),
  };
}

describe('lots shown with the matches', () => {
  it('a seeded rehearsal: each game 1 drawn from the seed is listed as `seed`, with the player the game gave White', () => {
    const { lots, whites } = lotsAfterOpening(true);
    expect(lots.size).toBe(2);
    for (const [id, list] of lots) {
      expect(list).toEqual([{ stage: 'classical', white: expect.any(String), whiteRank: whites.get(id), source: 'seed', by: 'director', atUtcMs: T0 }]);
    }
  });

  it('a fresh draw is listed once, as `random` (its draw-colours record is not listed again)', () => {
    const { lots } = lotsAfterOpening(false);
    for (const list of lots.values()) expect(list.map((l) => l.source)).toEqual(['random']);
  });
});
