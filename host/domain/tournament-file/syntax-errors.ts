// The tournament file's syntax errors in words: each error jsonc-parser reports (its
// ParseErrorCode) said as a sentence an organiser can act on, at its line:column, with the
// position of what it refers to (the value a comma should follow, the bracket left open).
// One mistake makes the parser report several errors on its line: only the first is said
// (docs/tournament.md "The file").

import * as jsonc from 'jsonc-parser';

// jsonc-parser's SyntaxKind is a const enum, which isolated modules cannot read: its values.
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const COMMA = 5;
const COLON = 6;
const NUMBER = 11;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const LINE_BREAK = 14;
const TRIVIA = 15;
const EOF = 17;

interface Token {
  kind: number;
  start: number;
  end: number;
  /** For a token inside an object or a list: the offset of the `{` or `[` that opened it. */
  openedAt: number | undefined;
  /** The bracket that encloses the token: `{` or `[`. */
  openedBy: number | undefined;
}

/** What a sentence may refer to: the token at the error, the one before it, and positions. */
interface ErrorContext {
  text: string;
  error: jsonc.ParseError;
  at: (offset: number) => string;
  /** The last token that ends at or before the error's offset (comments and blanks not counted). */
  before: Token | undefined;
  /** The token that starts at the error's offset, if one does. */
  here: Token | undefined;
}

type Sentence = (x: ErrorContext) => string;

const quoteHint = 'texts and field names are written in double quotes';

/** Every ParseErrorCode of jsonc-parser, by the name printParseErrorCode gives it, as a sentence. */
export const SYNTAX_SENTENCES: Record<string, Sentence> = {
  InvalidSymbol: (x) => {
    const token = raw(x);
    if (token.startsWith("'")) return `${token} is in single quotes: ${quoteHint} ("…")`;
    if (/^(true|false|null)$/i.test(token)) return `${token} is not a JSON value: write it in lower case, ${token.toLowerCase()}`;
    if (/^\+\d/.test(token)) return `${token} is not a number as JSON writes it: no + sign (write ${token.slice(1)})`;
    if (/^[\p{L}_$][\p{L}\p{N}_$-]*$/u.test(token))
      return `${token} is not a JSON value: ${quoteHint} ("${token}"); the only words without quotes are true, false and null`;
    return `unexpected ${describeCharacters(slice(x))}`;
  },
  InvalidNumberFormat: (x) => `${slice(x)} is not a number as JSON writes it (e.g. 12, -3, 0.5: no leading zero, no + sign)`,
  PropertyNameExpected: (x) =>
    x.before?.kind === COMMA
      ? `a field name is missing after the comma at ${x.at(x.before.start)}: an extra comma?`
      : `a field name is expected here, in double quotes ("name": …)`,
  ValueExpected: (x) => {
    if (x.before === undefined)
      return x.text.trim() === '' ? 'the file is empty: a tournament file is one object, { "events": [ … ] }' : 'a value is expected here';
    if (x.before.kind === COMMA) return `a value is missing after the comma at ${x.at(x.before.start)}: an extra comma?`;
    if (x.before.kind === COLON) return `a value is missing after the colon at ${x.at(x.before.start)}`;
    if (x.error.offset >= x.text.length) return 'the file ends where a value is expected';
    return 'a value is expected here';
  },
  ColonExpected: (x) => `a colon (:) is missing after the field name${x.before ? ` that ends at ${x.at(x.before.end - 1)}` : ''}`,
  CommaExpected: (x) => {
    // `01`: the scanner reads 0 then 1, two numbers with nothing between them.
    if (x.before?.kind === NUMBER && x.here?.kind === NUMBER && x.before.end === x.here.start)
      return `${x.text.slice(x.before.start, x.here.end)} is not a number as JSON writes it: no leading zero (write 1, or 0.5)`;
    return `a comma is missing after the value${x.before ? ` that ends at ${x.at(x.before.end - 1)}` : ''} (fields and list items are separated by commas)`;
  },
  CloseBraceExpected: (x) => unclosed(x, '}', 'object'),
  CloseBracketExpected: (x) => unclosed(x, ']', 'list'),
  EndOfFileExpected: (x) => `${describeCharacters(slice(x))} after the end of the file's object: an extra } or ]?`,
  InvalidCommentToken: () => 'a comment is not allowed here',
  UnexpectedEndOfComment: () => 'a comment opened with /* is never closed with */',
  UnexpectedEndOfString: () => 'unterminated string: a text is not closed with a double quote before the end of its line',
  UnexpectedEndOfNumber: (x) => `the number ${slice(x)} ends too early: a digit is missing`,
  InvalidUnicode: (x) => `${slice(x)} holds a \\u escape without its 4 hexadecimal digits (e.g. \\u00e9)`,
  InvalidEscapeCharacter: (x) =>
    `${slice(x)} holds a backslash escape JSON does not know (valid: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX; a backslash itself is written \\\\)`,
  InvalidCharacter: () => 'a control character (a tab or a line break) inside a text: write it as \\t or \\n, or leave it out',
};

/**
 * `line L:C: sentence` for each syntax error, the first of each line only (the parser's
 * follow-on errors of one mistake stand on its line).
 */
export function describeSyntaxErrors(text: string, errors: readonly jsonc.ParseError[], at: (offset: number) => string): string[] {
  if (!errors.length) return [];
  const tokens = scanTokens(text);
  const said = new Set<string>();
  let wrongBracketSaid = false;
  const out: string[] = [];
  for (const error of errors) {
    const where = at(error.offset);
    const line = where.split(':')[0];
    if (said.has(line)) continue;
    // A bracket left open at the end, after an earlier mistake (a text left unterminated took the
    // bracket that closed it): that mistake is the one to fix.
    if (said.size && atEnd(text, error) && /^Close(Brace|Bracket)Expected$/.test(jsonc.printParseErrorCode(error.error))) continue;
    said.add(line);
    const i = lastTokenEndingBy(tokens, error.offset);
    const before = i >= 0 ? tokens[i] : undefined;
    const next = tokens[i + 1];
    const here = next && next.start === error.offset ? next : undefined;
    const name = jsonc.printParseErrorCode(error.error);
    const x = { text, error, at, before, here };
    // `[1, 2}` or `{"events": [}`: whatever the parser expected, a bracket of the other kind closes.
    const mismatch = closeMismatch(x);
    // After one wrong bracket the later ones no longer pair as written: the first is the mistake.
    if (wrongBracketSaid && (mismatch !== undefined || /^Close(Brace|Bracket)Expected$/.test(name))) continue;
    wrongBracketSaid ||= mismatch !== undefined;
    const sentence = mismatch ?? SYNTAX_SENTENCES[name]?.(x) ?? `not valid JSON (${name})`;
    out.push(`line ${where}: ${sentence}`);
  }
  return out;
}

/** The tokens of the text that are not blanks or comments, each with the bracket that encloses it. */
function scanTokens(text: string): Token[] {
  const scanner = jsonc.createScanner(text, true);
  const open: { kind: number; start: number }[] = [];
  const tokens: Token[] = [];
  for (let kind = scanner.scan(); kind !== EOF; kind = scanner.scan()) {
    if (kind === LINE_COMMENT || kind === BLOCK_COMMENT || kind === LINE_BREAK || kind === TRIVIA) continue;
    const start = scanner.getTokenOffset();
    const top = open.at(-1);
    tokens.push({ kind, start, end: start + scanner.getTokenLength(), openedAt: top?.start, openedBy: top?.kind });
    if (kind === OPEN_BRACE || kind === OPEN_BRACKET) open.push({ kind, start });
    else if (kind === CLOSE_BRACE || kind === CLOSE_BRACKET) open.pop();
  }
  // The end of the text, enclosed by whatever is still open.
  const top = open.at(-1);
  tokens.push({ kind: EOF, start: text.length, end: text.length, openedAt: top?.start, openedBy: top?.kind });
  return tokens;
}

/** Index of the last token that ends at or before `offset`, by a binary search; -1 when none. */
function lastTokenEndingBy(tokens: readonly Token[], offset: number): number {
  let lo = -1;
  let hi = tokens.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (tokens[mid].end <= offset && tokens[mid].kind !== EOF) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function closeMismatch(x: ErrorContext): string | undefined {
  const h = x.here;
  if (!h || (h.kind !== CLOSE_BRACE && h.kind !== CLOSE_BRACKET) || h.openedAt === undefined) return undefined;
  const wanted = h.openedBy === OPEN_BRACKET ? ']' : '}';
  const found = h.kind === CLOSE_BRACKET ? ']' : '}';
  if (wanted === found) return undefined;
  return `${found} where ${wanted} should close the ${wanted === ']' ? 'list' : 'object'} opened at ${x.at(h.openedAt)}`;
}

function atEnd(text: string, error: jsonc.ParseError): boolean {
  return error.offset >= text.trimEnd().length;
}

function unclosed(x: ErrorContext, bracket: string, what: string): string {
  const token = x.here ?? x.before;
  const opened = token?.openedAt;
  const from = opened === undefined ? '' : ` opened at ${x.at(opened)}`;
  if (atEnd(x.text, x.error)) return `the file ends before the ${what}${from} is closed with ${bracket}`;
  return `a ${bracket} is missing to close the ${what}${from}`;
}

/** The text the error covers (at least one character, at most 40). */
function raw(x: ErrorContext): string {
  return x.text.slice(x.error.offset, x.error.offset + Math.max(1, Math.min(x.error.length, 40)));
}

/** The text the error covers, quoted as JSON writes a text. */
function slice(x: ErrorContext): string {
  return JSON.stringify(raw(x));
}

/** A token as the organiser sees it; a control character by its code point. */
function describeCharacters(quoted: string): string {
  const s = JSON.parse(quoted) as string;
  const cp = s.codePointAt(0) ?? 0;
  if (s.length === 1 && (cp < 0x20 || cp === 0x7f)) return `the control character U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return quoted;
}
