// The tournament file's reader: JSON with comments (`//`, `/* */`; JSONC, read by jsonc-parser)
// into its value, keeping where each field stands in the text, so that a problem found later by
// its field path is shown at its line:column (docs/tournament.md "The file").
//
// A comma after a list's last item or an object's last field is accepted; a syntax error is
// said in words (syntax-errors.ts).
//
// Before the parser sees the text, its nesting is measured by the scanner (a loop, no
// recursion): deeper than MAX_NESTING is refused at the bracket that goes too deep, instead of
// the parser running out of stack. After it, a key written twice in one object is refused with
// both positions, and the value keeps the last, so the fields are still checked
// (docs/tournament.md "Limits").

import * as jsonc from 'jsonc-parser';
import { describeSyntaxErrors } from './syntax-errors.ts';

/** Objects and arrays inside each other; the deepest real file (a knockout's `winnerOf`) uses 7. */
export const MAX_NESTING = 64;

// jsonc-parser's SyntaxKind is a const enum, which isolated modules cannot read: its values.
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const EOF = 17;

/** A file's text read: its value, or its syntax errors each at its line:column. */
export interface JsoncText {
  /**
   * The value (undefined for an empty text or one the parser could not read); a key written
   * twice holds its last value here, so the fields are still checked (`duplicateKeys`).
   */
  readonly value: unknown;
  /** `line L:C: …` in words, one per syntax error (the first of its line), or too deep a nesting; in the order of the text. */
  readonly syntaxErrors: string[];
  /** Each key written twice in one object, at the repeat's line:column; in the order of the text. */
  readonly duplicateKeys: string[];
  /** A problem `PATH: message` prefixed with the line:column of PATH's field (or of its nearest parent in the text). */
  locate(issue: string): string;
}

export function readJsonc(text: string): JsoncText {
  const at = lineIndex(text);
  const tooDeep = nestingProblem(text);
  if (tooDeep) return { value: undefined, syntaxErrors: [tooDeep], duplicateKeys: [], locate: (issue) => issue };
  const errors: jsonc.ParseError[] = [];
  // A comma after the last field or item is forgiven: a list edited by hand often keeps one.
  const tree = jsonc.parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const syntaxErrors = describeSyntaxErrors(text, errors, at);
  return {
    value: syntaxErrors.length || tree === undefined ? undefined : jsonc.getNodeValue(tree),
    syntaxErrors,
    duplicateKeys: tree === undefined ? [] : duplicateKeys(tree, at),
    locate: (issue) => locate(issue, tree, at),
  };
}

/**
 * Problems in the order of the text: by line, then column (`line L:C …`); a problem without a
 * position keeps its place after those with one. Sorts in place and returns the list.
 */
export function sortByPosition(problems: string[]): string[] {
  const key = (p: string): [number, number] => {
    const m = /^line (\d+):(\d+)/.exec(p);
    return m ? [Number(m[1]), Number(m[2])] : [Number.MAX_SAFE_INTEGER, 0];
  };
  const keyed = problems.map((p, i) => ({ p, i, k: key(p) }));
  keyed.sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.i - b.i);
  keyed.forEach((x, i) => {
    problems[i] = x.p;
  });
  return problems;
}

/**
 * 1-based `line:column` of a character offset, by a binary search in the offsets where lines
 * start (found once per text): each problem located costs log(lines), not a pass over the text.
 */
function lineIndex(text: string): (offset: number) => string {
  let starts: number[] | undefined;
  return (offset) => {
    if (!starts) {
      starts = [0];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return `${lo + 1}:${offset - starts[lo] + 1}`;
  };
}

/** The first `{` or `[` that opens a level deeper than MAX_NESTING, as a problem at its line:column. */
function nestingProblem(text: string): string | undefined {
  const scanner = jsonc.createScanner(text, true);
  let depth = 0;
  for (let token = scanner.scan(); token !== EOF; token = scanner.scan()) {
    if (token === OPEN_BRACE || token === OPEN_BRACKET) {
      if (++depth > MAX_NESTING) {
        const where = `${scanner.getTokenStartLine() + 1}:${scanner.getTokenStartCharacter() + 1}`;
        return `line ${where}: nested deeper than ${MAX_NESTING} levels of objects and arrays; a tournament file needs far fewer (docs/tournament.md "Limits")`;
      }
    } else if (token === CLOSE_BRACE || token === CLOSE_BRACKET) depth = Math.max(0, depth - 1);
  }
  return undefined;
}

/** Each key written twice in one object: the repeat's line:column and path, with the first's line:column. */
function duplicateKeys(tree: jsonc.Node, at: (offset: number) => string): string[] {
  const problems: string[] = [];
  const walk = (node: jsonc.Node, path: string): void => {
    if (node.type === 'array') node.children?.forEach((child, i) => walk(child, `${path}[${i}]`));
    if (node.type !== 'object') return;
    const first = new Map<string, jsonc.Node>();
    for (const property of node.children ?? []) {
      const [keyNode, value] = property.children ?? [];
      if (!keyNode) continue;
      const key = String(keyNode.value);
      const keyPath = path === '' ? key : `${path}.${key}`;
      const seen = first.get(key);
      if (seen)
        problems.push(
          `line ${at(property.offset)} ${keyPath}: duplicate key "${key}", first written at line ${at(seen.offset)}; a key is written once per object`,
        );
      else first.set(key, property);
      if (value) walk(value, keyPath);
    }
  };
  walk(tree, '');
  return problems;
}

/** The path `(file)` is the whole file; `events[0].players[1].name` a field in it. */
function locate(issue: string, tree: jsonc.Node | undefined, at: (offset: number) => string): string {
  const m = /^([^\s:]+): /.exec(issue);
  if (!m || tree === undefined) return issue;
  const segments: (string | number)[] =
    m[1] === '(file)' ? [] : (m[1].match(/[^.[\]]+|\[\d+\]/g) ?? []).map((t) => (t.startsWith('[') ? Number(t.slice(1, -1)) : t));
  for (let n = segments.length; n >= 0; n--) {
    const node = jsonc.findNodeAtLocation(tree, segments.slice(0, n));
    if (!node) continue;
    // A property's value: point at its key, where the organiser reads it.
    const where = node.parent?.type === 'property' ? node.parent.offset : node.offset;
    return `line ${at(where)} ${issue}`;
  }
  return issue;
}
