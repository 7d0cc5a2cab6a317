// Input that grows: what `chessclock tournament validate` and `import-trf` cost as their input
// grows (docs/benchmarks.md; docs/tournament.md "Limits", docs/exports.md "Reading a TRF").
// A tournament file of n players, one per line, paired in one round (ranks above 9999 do not
// fit TRF16 and are each a problem located at its line: the worst case of locating), read and
// checked by parseTournamentText; and a TRF of 100 players with r round columns, imported by
// importTrf. Time per size, in the process (the command adds node's start, about 0.6 s). Both
// grow linearly: doubling the input should about double the time.
import { parseTournamentText, TournamentFileError } from '../host/domain/tournament-file.ts';
import { importTrf } from '../host/adapters/exports/trf-import.ts';
import { bigTournamentText, bigTrf } from '../test/big-inputs.ts';

const PLAYERS = (process.env.INPUT_BENCH_PLAYERS ?? '8000,16000,32000,100000').split(',').map(Number);
const ROUNDS = (process.env.INPUT_BENCH_ROUNDS ?? '1000,2000,5000').split(',').map(Number);
const TRF_PLAYERS = 100;

export async function run(): Promise<void> {
  for (const n of PLAYERS) {
    const text = bigTournamentText(n);
    const t0 = performance.now();
    let problems = 0;
    try {
      parseTournamentText(text);
    } catch (err) {
      if (!(err instanceof TournamentFileError)) throw err;
      problems = err.issues.length;
    }
    const s = (performance.now() - t0) / 1000;
    console.log(`validate: ${n} players (${(text.length / 1e6).toFixed(1)} MB), ${problems} problems located: ${s.toFixed(2)} s`);
  }
  for (const r of ROUNDS) {
    const text = bigTrf(r, TRF_PLAYERS);
    const t0 = performance.now();
    const event = importTrf(text, { id: 'big' });
    const s = (performance.now() - t0) / 1000;
    console.log(
      `import-trf: ${TRF_PLAYERS} players × ${r} round columns (${(text.length / 1e6).toFixed(1)} MB), ${event.rounds.length} rounds: ${s.toFixed(2)} s`,
    );
  }
}
