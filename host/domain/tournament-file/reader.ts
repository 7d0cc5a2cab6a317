// The tournament file's reader: JSON with comments (`//`, `/* */`; JSONC, read by jsonc-parser)
// into its value, keeping where each field stands in the text, so that a problem found later by
// its field path is shown at its line:column (docs/tournament.md "The file").

import * as jsonc from 'jsonc-parser';

/** A file's text read: its value, or its syntax errors each at its line:column. */
export interface JsoncText {
  /** The value (undefined for an empty text); meaningful when there are no syntax errors. */
  readonly value: unknown;
  /** `line L:C: not valid JSON: …`, one per syntax error. */
  readonly syntaxErrors: string[];
  /** A problem `PATH: message` prefixed with the line:column of PATH's field (or of its nearest parent in the text). */
  locate(issue: string): string;
}

export function readJsonc(text: string): JsoncText {
  const errors: jsonc.ParseError[] = [];
  const tree = jsonc.parseTree(text, errors, { allowTrailingComma: false, disallowComments: false });
  return {
    value: errors.length || tree === undefined ? undefined : jsonc.getNodeValue(tree),
    syntaxErrors: errors.map((e) => `line ${lineColumn(text, e.offset)}: not valid JSON: ${jsonc.printParseErrorCode(e.error)}`),
    locate: (issue) => locate(issue, text, tree),
  };
}

/** 1-based `line:column` of a character offset. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `${line}:${offset - before.lastIndexOf('\n')}`;
}

/** The path `(file)` is the whole file; `events[0].players[1].name` a field in it. */
function locate(issue: string, text: string, tree: jsonc.Node | undefined): string {
  const m = /^([^\s:]+): /.exec(issue);
  if (!m || tree === undefined) return issue;
  const segments: (string | number)[] = m[1] === '(file)' ? [] : (m[1].match(/[^.[\]]+|\[\d+\]/g) ?? []).map((t) => (t.startsWith('[') ? Number(t.slice(1, -1)) : t));
  for (let n = segments.length; n >= 0; n--) {
    const node = jsonc.findNodeAtLocation(tree, segments.slice(0, n));
    if (!node) continue;
    // A property's value: point at its key, where the organiser reads it.
    const at = node.parent?.type === 'property' ? node.parent.offset : node.offset;
    return `line ${lineColumn(text, at)} ${issue}`;
  }
  return issue;
}
