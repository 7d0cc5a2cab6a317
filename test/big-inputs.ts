// Inputs that grow, for the limit tests and the input bench (docs/tournament.md "Limits",
// docs/exports.md "Reading a TRF", docs/benchmarks.md).

/** An individual event of `n` players, one per line, paired in one round; ranks above 9999 are problems. */
export function bigTournamentText(n: number): string {
  const players = Array.from({ length: n }, (_, i) => `    { "rank": ${i + 1}, "name": "Player, N${i + 1}" }`);
  const boards = Array.from({ length: Math.floor(n / 2) }, (_, b) => `{ "board": ${b + 1}, "white": ${2 * b + 1}, "black": ${2 * b + 2} }`);
  return [
    '{ "events": [{ "id": "big", "name": "Big", "kind": "individual", "timeControl": "classical",',
    '  "players": [',
    players.join(',\n'),
    '  ],',
    `  "rounds": [{ "number": 1, "boards": [${boards.join(', ')}] }] }] }`,
  ].join('\n');
}

/** A 001 line by its TRF16 columns: rank 5-8, sex 10, name 15-47, rating 49-52, federation 54-56, points 81-84, rank 86-89, then the rounds. */
export function trfPlayerLine(rank: number, rounds: string[]): string {
  const name = `Player, N${rank}`.padEnd(33);
  return `001 ${String(rank).padStart(4)} m    ${name} 2000 SLO ${''.padStart(11)} ${''.padEnd(10)} ${'0.0'.padStart(4)} ${String(rank).padStart(4)}  ${rounds.join('  ')}`;
}

/** `players` players (even), paired 1-2, 3-4, … in each of `rounds` rounds, results not yet in; XXR says `xxr`. */
export function bigTrf(rounds: number, players: number, xxr = rounds): string {
  const lines = ['012 Big', '222 5400+30', `XXR ${xxr}`];
  for (let i = 1; i <= players; i++) {
    const opponent = i % 2 === 1 ? i + 1 : i - 1;
    lines.push(
      trfPlayerLine(
        i,
        Array.from({ length: rounds }, (_, k) => `${String(opponent).padStart(4)} ${(i % 2 === 1) === (k % 2 === 0) ? 'w' : 'b'}  `),
      ),
    );
  }
  return lines.join('\n') + '\n';
}
