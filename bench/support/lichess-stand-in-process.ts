// The lichess stand-in (host/adapters/broadcast/lichess-stand-in.fixture.ts) in a process of its
// own, for `npm run bench -- broadcast`: its parsing of every pushed game with chessops is
// lichess's work, not the host's, and stays out of the host's CPU figure. Argument: JSON
// `{ "token": "...", "rounds": ["AbCd1234", ...] }`. Prints its URL on one line, then serves until
// its stdin closes.
import { LichessStandIn } from '../../host/adapters/broadcast/lichess-stand-in.fixture.ts';

const { token, rounds } = JSON.parse(process.argv[2]) as { token: string; rounds: string[] };
const standIn = new LichessStandIn(
  { [token]: { user: 'bench', scopes: ['study:write'] } },
  Object.fromEntries(rounds.map((r) => [r, { contributors: ['bench'] }])),
);
// Only the count of requests is kept: 756 games a push for minutes would fill the memory.
standIn.on('push', () => standIn.pushes.splice(0));
console.log(await standIn.start());
process.stdin.resume();
process.stdin.on('end', () => void standIn.stop().then(() => process.exit(0)));
