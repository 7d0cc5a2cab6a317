// The tournament file's limits (docs/tournament.md "Limits"): a big file is read in time linear
// in its size, too deep a nesting is refused at its line:column instead of overflowing the
// stack, and a key written twice in one object is refused with both positions.

import { describe, expect, it } from 'vitest';
import { parseTournamentText, TournamentFileError } from '../tournament-file.ts';
import { MAX_NESTING } from './reader.ts';
import { bigTournamentText } from '../../../test/big-inputs.ts';

function issuesOf(text: string): string[] {
  try {
    parseTournamentText(text);
  } catch (err) {
    if (err instanceof TournamentFileError) return err.issues;
    throw err;
  }
  throw new Error('expected the file to be refused');
}

describe('tournament file limits (docs/tournament.md "Limits")', () => {
  it('locates every problem of a 32,000-player file by its own line (each located by a search in the line starts, not a pass over the text)', () => {
    // Ranks 10000 and above do not fit TRF16's four columns: one problem per such player, each at
    // its own line (players[i] is on line i + 3). Before the line index this took minutes.
    const issues = issuesOf(bigTournamentText(32_000));
    const rankProblems = issues.filter((i) => i.includes('.rank: must be a whole number'));
    expect(rankProblems).toHaveLength(32_000 - 9_999);
    expect(rankProblems[0]).toBe('line 10002:7 events[0].players[9999].rank: must be a whole number from 1 to 9999, got 10000');
    expect(rankProblems.at(-1)).toBe('line 32002:7 events[0].players[31999].rank: must be a whole number from 1 to 9999, got 32000');
  });

  it(`refuses nesting deeper than ${MAX_NESTING} levels at the bracket's line:column, instead of a stack overflow`, () => {
    // 200 KB of brackets: the parser alone recurses once per level and runs out of stack.
    const deep = `{\n  "events": ${'['.repeat(100_000)}${']'.repeat(100_000)}\n}`;
    const issues = issuesOf(deep);
    expect(issues).toEqual([
      `line 2:${13 + MAX_NESTING - 1}: nested deeper than ${MAX_NESTING} levels of objects and arrays; a tournament file needs far fewer (docs/tournament.md "Limits")`,
    ]);
    // Brackets inside strings and comments are not nesting.
    const quoted = `// ${'['.repeat(200)}\n{ "hall": { "name": "${'{'.repeat(200)}" }, "events": [] }`;
    expect(issuesOf(quoted)).toEqual(['line 2:227 events: needs at least one event']);
  });

  it('refuses a key written twice in one object, naming the repeat (line:column and path) and the first', () => {
    const text = [
      '{',
      '  "events": [{',
      '    "id": "e1", "name": "Open", "kind": "individual", "timeControl": "classical",',
      '    "players": [{ "rank": 1, "name": "A, A", "name": "B, B" }],',
      '    "id": "e2"',
      '  }]',
      '}',
    ].join('\n');
    expect(issuesOf(text)).toEqual([
      'line 4:46 events[0].players[0].name: duplicate key "name", first written at line 4:30; a key is written once per object',
      'line 5:5 events[0].id: duplicate key "id", first written at line 3:5; a key is written once per object',
    ]);
  });
});
