// docs/broadcast.md "Moves sources": a file or folder a board system rewrites (a real temporary
// folder, fs.watch), and a URL polled with its ETag (a real loopback HTTP server). Every test
// waits for the source's events.
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MovesSource, type MovesText, openMovesSource, parseMovesSource, placeOf } from './moves-source.ts';

const game = (board: number, movetext: string) => `[Event "?"]\n[Round "1.${board}"]\n[White "W${board}"]\n[Black "B${board}"]\n[Result "*"]\n\n${movetext}\n`;

let dir: string;
let source: MovesSource | null = null;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'moves-source-'));
});
afterEach(() => {
  source?.stop();
  source = null;
  rmSync(dir, { recursive: true, force: true });
});

/** Every `moves` text the source hands on, in order. */
function recordMoves(s: MovesSource): string[] {
  const seen: string[] = [];
  s.on('moves', (m) => seen.push(m.text));
  return seen;
}
const nextMoves = async (s: MovesSource): Promise<MovesText> => (await once(s, 'moves'))[0] as MovesText;
const nextIncomplete = async (s: MovesSource): Promise<string> => (await once(s, 'incomplete'))[0] as string;

describe('a folder a board system rewrites (DGT LiveChess writes a round to a folder)', () => {
  it("hands on the folder's games, and a half-written file (truncated, then written) is read again at the next change, never handed on", async () => {
    const file = join(dir, 'round-1.pgn');
    writeFileSync(file, game(1, '1. e4 e5 *'));
    writeFileSync(join(dir, 'notes.txt'), 'not PGN, not read');
    source = openMovesSource({ kind: 'folder', path: dir }, { debounceMs: 30 });
    const seen = recordMoves(source);
    const first = nextMoves(source);
    source.start();
    expect(await first).toEqual({ text: game(1, '1. e4 e5 *').trim(), games: 1, parts: [{ name: file, line: 1 }] });

    // The writer truncates and writes again; a read lands in the middle (an open comment).
    const incomplete = nextIncomplete(source);
    writeFileSync(file, '');
    writeFileSync(file, `${game(1, '1. e4 e5 2. Nf3 {[%clk 1:2')}`);
    // Read empty or half-written (here an open comment, line 7), it is said and waited out.
    expect(await incomplete).toMatch(/(is empty|: line 7:\d+: .*) \(being rewritten\?\): read again at its next change$/);
    expect(source.current).toBe(game(1, '1. e4 e5 *').trim());

    // The writer finishes, and a second board's file appears: both handed on, joined in name order.
    const finished = nextMoves(source);
    writeFileSync(file, game(1, '1. e4 e5 2. Nf3 *'));
    writeFileSync(join(dir, 'round-2.pgn'), game(2, '1. d4 *'));
    let last = await finished;
    while (last.games < 2) last = await nextMoves(source);
    expect(last.text).toBe(`${game(1, '1. e4 e5 2. Nf3 *').trim()}\n\n${game(2, '1. d4 *').trim()}`);
    // A line of the joined text is told by its own file and line: round-2.pgn's Round tag is its line 2.
    expect(last.parts).toEqual([
      { name: file, line: 1 },
      { name: join(dir, 'round-2.pgn'), line: 9 },
    ]);
    expect([placeOf(last, 2), placeOf(last, 10)]).toEqual([`${file}:2`, `${join(dir, 'round-2.pgn')}:2`]);
    // Nothing half-written was ever handed on.
    expect(seen.every((t) => !t.includes('[%clk 1:2'))).toBe(true);
  });

  it('a file source: emptied by the writer is said, not handed on; the new text is', async () => {
    const file = join(dir, 'games.pgn');
    writeFileSync(file, game(1, '1. e4 *'));
    source = openMovesSource(
      parseMovesSource(file, () => false),
      { debounceMs: 30 },
    );
    const first = nextMoves(source);
    source.start();
    await first;
    const incomplete = nextIncomplete(source);
    writeFileSync(file, '');
    expect(await incomplete).toBe(`${file} is empty (being rewritten?): read again at its next change`);
    const next = nextMoves(source);
    writeFileSync(file, game(1, '1. e4 c5 *'));
    expect((await next).text).toBe(game(1, '1. e4 c5 *'));
  });
});

describe('a URL polled with If-None-Match / If-Modified-Since (RFC 9110 §13.1)', () => {
  let server: Server;
  let body = game(1, '1. e4 *');
  let etag = '"v1"';
  let failWith: number | null = null;
  const requests: IncomingHttpHeaders[] = [];
  let onRequest: ((h: IncomingHttpHeaders) => void) | null = null;
  let url: string;

  beforeEach(async () => {
    requests.length = 0;
    server = createServer((req, res) => {
      requests.push(req.headers);
      onRequest?.(req.headers);
      if (failWith !== null) return res.writeHead(failWith).end('down for maintenance');
      if (req.headers['if-none-match'] === etag) return res.writeHead(304, { etag }).end();
      res.writeHead(200, { 'content-type': 'application/x-chess-pgn', etag, 'last-modified': 'Sat, 02 May 2026 14:00:00 GMT' }).end(body);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/round-1/games.pgn`;
  });
  afterEach(async () => {
    source?.stop();
    server.close();
    server.closeAllConnections();
  });

  /** The next request the server sees that satisfies `test`. */
  const requestWhere = (test: (h: IncomingHttpHeaders) => boolean) =>
    new Promise<IncomingHttpHeaders>((resolve) => {
      onRequest = (h) => {
        if (test(h)) resolve(h);
      };
    });

  it('reads the text, asks again with its ETag and Last-Modified (a 304 is no new text), and hands on a changed text', async () => {
    source = openMovesSource(
      parseMovesSource(url, () => false),
      { pollMs: 20 },
    );
    const seen = recordMoves(source);
    const first = nextMoves(source);
    source.start();
    expect(await first).toEqual({ text: body, games: 1, parts: [{ name: url, line: 1 }] });
    const conditional = await requestWhere((h) => h['if-none-match'] !== undefined);
    expect([conditional['if-none-match'], conditional['if-modified-since']]).toEqual(['"v1"', 'Sat, 02 May 2026 14:00:00 GMT']);
    const changed = nextMoves(source);
    body = game(1, '1. e4 e5 *');
    etag = '"v2"';
    expect((await changed).text).toBe(body);
    expect(seen).toEqual([game(1, '1. e4 *'), game(1, '1. e4 e5 *')]);
  });

  it('an HTTP error is a problem, said, and the source goes on polling', async () => {
    failWith = 503;
    source = openMovesSource({ kind: 'url', url }, { pollMs: 20 });
    const problem = once(source, 'problem');
    source.start();
    expect((await problem)[0]).toBe(`${url}: HTTP 503 Service Unavailable`);
    const recovered = nextMoves(source);
    failWith = null;
    etag = '"v3"';
    expect((await recovered).games).toBe(1);
  });
});

describe('a moves source as written on the command line or in the tournament file', () => {
  it('an http(s) URL, a folder, or a file; anything else refused with what is wrong', () => {
    expect(parseMovesSource('https://example.org/live/games.pgn', () => false)).toEqual({ kind: 'url', url: 'https://example.org/live/games.pgn' });
    expect(parseMovesSource('/data/livechess/round-1/', () => false)).toEqual({ kind: 'folder', path: '/data/livechess/round-1/' });
    expect(parseMovesSource('/data/livechess/round-1', () => true)).toEqual({ kind: 'folder', path: '/data/livechess/round-1' });
    expect(parseMovesSource('games.pgn', () => false)).toEqual({ kind: 'file', path: 'games.pgn' });
    expect(() => parseMovesSource('ftp://example.org/games.pgn', () => false)).toThrow(
      'moves source "ftp://example.org/games.pgn": only http and https URLs are polled',
    );
    expect(() => parseMovesSource('  ', () => false)).toThrow('moves source: empty');
  });
});
