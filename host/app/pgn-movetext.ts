// A PGN reader for files with moves (a DGT board's export, a transcribed score sheet) that keeps
// everything it reads — tag pairs as written, move numbers, moves, NAGs, comments, variations
// and the result — so that `chessclock export --pgn --moves` can add clock comments and write
// the rest back unchanged (docs/exports.md "Clock times merged into the moves").
//
// PGN standard (1994) §8: a game is its tag pairs (§8.1) then its movetext (§8.2): move number
// indications (§8.2.2), SAN moves (§8.2.3), NAGs `$n` (§8.2.4), brace and rest-of-line comments
// (§5), recursive annotation variations `( … )` (§8.2.5) and a game termination marker (§8.2.6).
// The moves are not played here (the chess rules of chessops are a test dependency): a token is
// checked for the SAN form only. Any other token is refused with its line:column. Lines starting
// with `%` (§6, the escape mechanism) are skipped, as the standard asks of readers.
import { PGN_RESULT_TOKENS } from '../../rules/vocabulary.ts';

export class PgnSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`line ${line}:${column}: ${reason}`);
    this.name = 'PgnSyntaxError';
  }
}

export type MovetextToken =
  | { kind: 'number'; text: string }
  | { kind: 'san'; text: string; depth: number }
  | { kind: 'nag'; text: string }
  | { kind: 'comment'; text: string }
  | { kind: 'line-comment'; text: string }
  | { kind: 'open' }
  | { kind: 'close' };

export interface MovetextGame {
  /** Line of the game's first tag pair (or first movetext token). */
  line: number;
  /** The tag pair lines exactly as written (trimmed), in file order. */
  tagLines: string[];
  /** Tag values, unescaped (§7). */
  tags: Map<string, string>;
  tokens: MovetextToken[];
  /** The game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*` (rules/vocabulary.ts PGN_RESULT_TOKENS). */
  result: string;
}

/** §8.2.3 SAN (with the import format's `0-0`, `--` null move and `!?` suffixes). */
const SAN = /^(?:[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](?:=?[NBRQ])?|[a-h]x?[a-h]?[1-8]?(?:=?[NBRQ])?|O-O(?:-O)?|0-0(?:-0)?|--|Z0)[+#]?[!?]{0,2}$/;
const SYMBOL = /[A-Za-z0-9_+#=:\-/.!?*]/;

export function parseMovetextGames(text: string): MovetextGame[] {
  return new MovetextReader(text).read();
}

type Place = { line: number; column: number };

/** Reads a PGN file token by token: where it is in the text, the game it is in, the variations open. */
class MovetextReader {
  private readonly games: MovetextGame[] = [];
  private i = 0;
  private line = 1;
  private col = 1;
  private game: MovetextGame | null = null;
  private inMovetext = false;
  /** Open variations: where each `(` was. */
  private readonly open: Place[] = [];

  constructor(private readonly text: string) {}

  read(): MovetextGame[] {
    const text = this.text;
    while (this.i < text.length) {
      const c = text[this.i];
      if (c === '\n' || c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\ufeff') {
        this.advance(1);
        continue;
      }
      const at = { line: this.line, column: this.col };
      if (c === '%' && this.col === 1) {
        while (this.i < text.length && text[this.i] !== '\n') this.advance(1);
        continue;
      }
      if (c === '[') {
        this.tagPair(at);
        continue;
      }
      const g = this.start();
      this.inMovetext = true;
      this.movetextToken(g, c, at);
    }
    if (this.game !== null) {
      const g = this.game as MovetextGame;
      const o = this.open[this.open.length - 1];
      if (o) throw new PgnSyntaxError(o.line, o.column, 'variation "(" not closed by ")" before the end of the file');
      throw new PgnSyntaxError(this.line, this.col, `the game from line ${g.line} ends without a result (1-0, 0-1, 1/2-1/2 or *, PGN standard §8.2.6)`);
    }
    return this.games;
  }

  private advance(n: number): void {
    for (let k = 0; k < n; k++) {
      if (this.text[this.i] === '\n') {
        this.line++;
        this.col = 1;
      } else this.col++;
      this.i++;
    }
  }

  /** The game being read, or a new one from here. */
  private start(): MovetextGame {
    if (!this.game) {
      this.game = { line: this.line, tagLines: [], tags: new Map(), tokens: [], result: '' };
      this.games.push(this.game);
    }
    return this.game;
  }

  private end(): void {
    this.game = null;
    this.inMovetext = false;
  }

  /** A tag pair (§8.1) at `at`: stored as written and unescaped, or refused saying what is wrong. */
  private tagPair(at: Place): void {
    const text = this.text;
    if (this.inMovetext) {
      throw new PgnSyntaxError(
        at.line,
        at.column,
        `a tag pair inside the movetext of the game from line ${this.game!.line}: that game has no result (1-0, 0-1, 1/2-1/2 or *, PGN standard §8.2.6)`,
      );
    }
    const g = this.start();
    const m = /^\[[ \t]*([A-Za-z0-9_]+)[ \t]+"((?:[^"\\\n]|\\.)*)"[ \t]*\]/.exec(text.slice(this.i, this.i + 10_000));
    if (!m) {
      const lineText = text.slice(this.i).split('\n')[0];
      const name = /^\[[ \t]*([A-Za-z0-9_]*)/.exec(lineText)![1];
      const why =
        name === ''
          ? 'a tag name ([A-Za-z0-9_]) must follow "["'
          : !/^\[[ \t]*[A-Za-z0-9_]+[ \t]+"/.test(lineText)
            ? `tag ${name}: its value must be a "string" after the name`
            : /^\[[ \t]*[A-Za-z0-9_]+[ \t]+"(?:[^"\\]|\\.)*$/.test(lineText)
              ? `tag ${name}: the string is not closed on its line`
              : `tag ${name}: "]" must follow the string`;
      throw new PgnSyntaxError(at.line, at.column, `malformed tag pair ${JSON.stringify(lineText.slice(0, 60))}: ${why} (PGN standard §8.1)`);
    }
    const [, name, escaped] = m;
    if (g.tags.has(name)) throw new PgnSyntaxError(at.line, at.column, `tag ${name} repeated in the game from line ${g.line}`);
    g.tags.set(name, escaped.replace(/\\(.)/g, '$1'));
    g.tagLines.push(m[0]);
    this.advance(m[0].length);
  }

  /** One movetext token starting with `c` at `at`: a comment, a variation's bracket, a NAG, or a word. */
  private movetextToken(g: MovetextGame, c: string, at: Place): void {
    const text = this.text;
    const i = this.i;
    if (c === '{') {
      const close = text.indexOf('}', i + 1);
      if (close === -1) throw new PgnSyntaxError(at.line, at.column, 'comment "{" not closed by "}" before the end of the file');
      g.tokens.push({ kind: 'comment', text: text.slice(i + 1, close) });
      return this.advance(close + 1 - i);
    }
    if (c === '}') throw new PgnSyntaxError(at.line, at.column, '"}" without an opening "{"');
    if (c === ';') {
      let j = i;
      while (j < text.length && text[j] !== '\n') j++;
      g.tokens.push({ kind: 'line-comment', text: text.slice(i + 1, j).replace(/\r$/, '') });
      return this.advance(j - i);
    }
    if (c === '(') {
      if (!g.tokens.some((t) => t.kind === 'san')) throw new PgnSyntaxError(at.line, at.column, 'a variation "(" before any move');
      this.open.push(at);
      g.tokens.push({ kind: 'open' });
      return this.advance(1);
    }
    if (c === ')') {
      if (this.open.length === 0) throw new PgnSyntaxError(at.line, at.column, '")" without an opening "("');
      this.open.pop();
      g.tokens.push({ kind: 'close' });
      return this.advance(1);
    }
    if (c === '$') {
      const m = /^\$\d+/.exec(text.slice(i, i + 8));
      if (!m) throw new PgnSyntaxError(at.line, at.column, '"$" must be followed by a number (a NAG, PGN standard §8.2.4)');
      g.tokens.push({ kind: 'nag', text: m[0] });
      return this.advance(m[0].length);
    }
    if (!SYMBOL.test(c)) throw new PgnSyntaxError(at.line, at.column, `unexpected character ${JSON.stringify(c)}`);
    this.word(g, at);
  }

  /** A word of symbol characters at `at`: the result (which ends the game), a move number, or a SAN move. */
  private word(g: MovetextGame, at: Place): void {
    const text = this.text;
    let j = this.i;
    while (j < text.length && SYMBOL.test(text[j])) j++;
    const word = text.slice(this.i, j);
    if ((PGN_RESULT_TOKENS as readonly string[]).includes(word)) {
      if (this.open.length) {
        const o = this.open[this.open.length - 1];
        throw new PgnSyntaxError(at.line, at.column, `the result ${word} ends the game while the variation opened at line ${o.line}:${o.column} is not closed`);
      }
      g.result = word;
      this.advance(word.length);
      return this.end();
    }
    // A move number indication, possibly glued to its move (`12.Nf3`, `12...Nf3`).
    const num = /^\d+\.*/.exec(word);
    if (num && (num[0].includes('.') || num[0] === word)) {
      g.tokens.push({ kind: 'number', text: num[0] });
      return this.advance(num[0].length);
    }
    if (!SAN.test(word)) {
      throw new PgnSyntaxError(at.line, at.column, `${JSON.stringify(word)} is not a move in SAN, a move number, a NAG or a result (PGN standard §8.2)`);
    }
    g.tokens.push({ kind: 'san', text: word, depth: this.open.length });
    this.advance(word.length);
  }
}

/** The main line's moves (SAN tokens outside variations), in order. */
export function mainLine(game: MovetextGame): string[] {
  return game.tokens.flatMap((t) => (t.kind === 'san' && t.depth === 0 ? [t.text] : []));
}

/** Who moves first and the first full move number: White and 1, or the FEN tag's fields 2 and 6 (PGN standard §9.7.2). */
export function firstMove(game: MovetextGame): { black: boolean; fullMove: number } {
  const fen = game.tags.get('FEN');
  if (!fen) return { black: false, fullMove: 1 };
  const fields = fen.trim().split(/\s+/);
  return { black: fields[1] === 'b', fullMove: Number(fields[5]) > 0 ? Number(fields[5]) : 1 };
}

/**
 * Writes a game back: its tag lines as read, then its movetext with `annotate(ply)` — a comment
 * body for the ply-th move of the main line (0-based), or null — merged into the comment that
 * follows the move (after its NAGs) or inserted as a new one. A black move that follows a
 * comment, NAG or variation gets its `N...` number (§8.2.2.2). Lines of at most 79 characters
 * (§8.2.5) except a single longer token.
 */
export function writeMovetextGame(game: MovetextGame, annotate: (ply: number) => string | null): string {
  const out: string[] = [];
  const { black: startBlack, fullMove } = firstMove(game);
  let ply = -1;
  /** What was written last: a black move needs its `N...` after anything but a move number or a move. */
  let last: MovetextToken['kind'] | null = null;
  const push = (text: string, kind: MovetextToken['kind']) => {
    out.push(text);
    last = kind;
  };
  const tokens = game.tokens;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    switch (t.kind) {
      case 'open':
        push('(', 'open');
        break;
      case 'close':
        push(')', 'close');
        break;
      case 'number':
      case 'nag':
        push(t.text, t.kind);
        break;
      case 'comment':
        push(`{${t.text}}`, 'comment');
        break;
      case 'line-comment':
        push(`;${t.text}\n`, 'line-comment');
        break;
      case 'san': {
        if (t.depth !== 0) {
          push(t.text, 'san');
          break;
        }
        ply++;
        const half = ply + (startBlack ? 1 : 0);
        const n = fullMove + Math.floor(half / 2);
        if (half % 2 === 1 && last !== 'number' && last !== 'san') push(`${n}...`, 'number');
        if (half % 2 === 0 && last !== 'number') push(`${n}.`, 'number');
        push(t.text, 'san');
        const note = annotate(ply);
        if (note === null) break;
        // After the move's NAGs: merge into the comment there, or a new one.
        let j = k + 1;
        for (; j < tokens.length && tokens[j].kind === 'nag'; j++) push((tokens[j] as { text: string }).text, 'nag');
        const next = tokens[j];
        if (next && next.kind === 'comment') {
          const rest = next.text.trim();
          push(`{${note}${rest ? ` ${rest}` : ''}}`, 'comment');
          k = j;
        } else {
          push(`{${note}}`, 'comment');
          k = j - 1;
        }
        break;
      }
    }
  }
  out.push(game.result);
  const lines: string[] = [];
  let current = '';
  for (const token of out) {
    const forced = token.endsWith('\n');
    const text = forced ? token.slice(0, -1) : token;
    const glue = current === '' || current.endsWith('(') || text === ')' ? '' : ' ';
    if (current !== '' && current.length + glue.length + text.length > 79) {
      lines.push(current);
      current = text;
    } else current += glue + text;
    if (forced) {
      lines.push(current);
      current = '';
    }
  }
  if (current) lines.push(current);
  return `${game.tagLines.join('\n')}${game.tagLines.length ? '\n\n' : ''}${lines.join('\n')}\n`;
}
