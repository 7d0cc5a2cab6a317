// A PGN game read as lichess reads a pushed game: chessops (lichess's own JavaScript chess
// library) parses the text, every main-line move is played by its move rules from the game's
// start position (a SAN that is no legal move there is an error, as lichess answers it), and the
// `[%clk]` and `[%emt]` of each move are read with its comment parser. Used by the broadcast
// tests and by the lichess stand-in (lichess-stand-in.fixture.ts).
import { makeFen } from 'chessops/fen';
import { parseComment, parsePgn, startingPosition, type Game, type PgnNodeData } from 'chessops/pgn';
import { parseSan } from 'chessops/san';

export interface ChessopsGame {
  tags: Record<string, string>;
  /** SAN of the main line, as far as it is legal. */
  sans: string[];
  /** Each ply's `[%clk]` in seconds (tenths kept), null where none. */
  clocks: (number | null)[];
  emts: (number | null)[];
  /** Comments before the first move. */
  comments: string[];
  /** Comments after each ply (chessops's text, clock commands included). */
  plyComments: string[][];
  /** The position after the last legal move (FEN). */
  fen: string;
  /** Why the game cannot be played: a start position refused or the first illegal move. */
  error: string | null;
}

export function readWithChessops(text: string): ChessopsGame[] {
  return parsePgn(text).map(readGame);
}

function readGame(game: Game<PgnNodeData>): ChessopsGame {
  const tags = Object.fromEntries(game.headers);
  const out: ChessopsGame = { tags, sans: [], clocks: [], emts: [], comments: game.comments ?? [], plyComments: [], fen: '', error: null };
  const start = startingPosition(game.headers);
  if (start.isErr) {
    out.error = `start position: ${start.error.message}`;
    return out;
  }
  const pos = start.value;
  let ply = 0;
  for (const node of game.moves.mainline()) {
    ply++;
    const move = parseSan(pos, node.san);
    if (!move) {
      out.error = `ply ${ply}: ${node.san} is no legal move in ${makeFen(pos.toSetup())}`;
      break;
    }
    pos.play(move);
    const parsed = (node.comments ?? []).map(parseComment);
    out.sans.push(node.san);
    out.clocks.push(parsed.find((c) => c.clock !== undefined)?.clock ?? null);
    out.emts.push(parsed.find((c) => c.emt !== undefined)?.emt ?? null);
    out.plyComments.push(node.comments ?? []);
  }
  out.fen = makeFen(pos.toSetup());
  return out;
}
