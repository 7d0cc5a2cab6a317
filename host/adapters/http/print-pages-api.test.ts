// The pages printed before a round over the API (docs/api.md "Pictures and print views",
// docs/exports.md "Print before the round"): GET /events/:event/pairings.html and cards.html on a
// host composed by host/start-host.ts. Round 1 comes from the tournament file; round 2 is loaded
// from a pairing program's TRF, proposed, and approved by an arbiter (docs/tournament.md "Pairing
// the next round"): its pages exist only once it is approved. A player's name holding markup is
// text on both pages (HTML Living Standard §13.1.2.6 escaping), and the pages run nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../start-host.ts';
import { Journal } from '../../store/journal.ts';
import { parseTournament } from '../../domain/tournament-file.ts';
import { addRoundToTrf, ARBITER, confirmRound, stoppedClock, SWISS, swissTournament } from '../../app/next-round.fixture.ts';

const TOKEN = 'print-pages-arbiter-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}` };
// At most 33 characters: the TRF16 name field.
const EVIL = `<script>x()</script> O'N & "C"`;

const running: RunningHost[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

async function start(): Promise<RunningHost> {
  const raw = swissTournament(['--mode=exit']);
  raw.events[0].players[4].name = EVIL; // rank 5: board 1's Black in round 1
  const host = await startHost({
    journal: new Journal(':memory:'),
    hall: parseTournament(raw),
    clock: stoppedClock(),
    http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [{ arbiter: ARBITER, token: TOKEN }], dashboard: false },
    log: () => undefined,
  });
  running.push(host);
  return host;
}

/** The text of each cell of each `<tr>` of the table with class `cls`. */
function rows(html: string, cls: string): string[][] {
  const table = html.match(new RegExp(`<table class="pairings ${cls}">([\\s\\S]*?)</table>`))![1];
  const body = table.split('<tbody>')[1];
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => [...m[1].matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((c) => c[1]));
}

const ESCAPED = '&lt;script&gt;x()&lt;/script&gt; O&#39;N &amp; &quot;C&quot;';

describe('GET /events/:event/pairings.html and cards.html: the round printed before it is played', () => {
  it('round 1 from the file: boards in order with table, names, ratings; the bye listed; every player alphabetically with board and colour; markup in a name is text', async () => {
    const r = await start();
    const res = await r.api!.inject({ url: `/events/${SWISS}/pairings.html?round=1` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const html = res.body;
    expect(html).not.toContain('<script');
    // The file's round 1 (next-round.fixture.ts): 1–5, 6–2, 3–7, player 4 the bye. One event: tables = boards.
    expect(rows(html, 'by-board')).toEqual([
      ['1', '1', '1', 'Prvi, Igralec', '2400', '', '', '5', ESCAPED, '2200', ''],
      ['2', '2', '6', 'Šesti, Igralec', '2150', '', '', '2', 'Drugi, Igralec', '2350', ''],
      ['3', '3', '3', 'Tretji, Igralec', '2300', '', '', '7', 'Sedmi, Igralec', '2100', ''],
    ]);
    expect(html).toContain('<ul class="byes"><li data-player="4">Četrti, Igralec: pairing-allocated bye (1.0)</li></ul>');
    // Alphabetical (punctuation before letters; Slovenian Č after C, Š after S): board, table, colour, opponent.
    expect(rows(html, 'alphabetical')).toEqual([
      [ESCAPED, '1', '1', 'Black', 'Prvi, Igralec'],
      ['Četrti, Igralec', '', '', '', 'pairing-allocated bye'],
      ['Drugi, Igralec', '2', '2', 'Black', 'Šesti, Igralec'],
      ['Prvi, Igralec', '1', '1', 'White', ESCAPED],
      ['Sedmi, Igralec', '3', '3', 'Black', 'Tretji, Igralec'],
      ['Šesti, Igralec', '2', '2', 'White', 'Drugi, Igralec'],
      ['Tretji, Igralec', '3', '3', 'White', 'Sedmi, Igralec'],
    ]);

    const cards = await r.api!.inject({ url: `/events/${SWISS}/cards.html?round=1` });
    expect(cards.statusCode).toBe(200);
    expect(cards.body).not.toContain('<script');
    expect([...cards.body.matchAll(/<article class="card" data-board="(\d+)" data-table="(\d+)">/g)].map((m) => [m[1], m[2]])).toEqual([
      ['1', '1'],
      ['2', '2'],
      ['3', '3'],
    ]);
    expect(cards.body).toContain(`<span class="player">${ESCAPED}</span><span class="facts">2200</span>`);
    // Two cards to a sheet by default, four when asked.
    expect(cards.body.match(/<section class="sheet per-2">/g)).toHaveLength(2);
    const four = await r.api!.inject({ url: `/events/${SWISS}/cards.html?round=1&perPage=4` });
    expect(four.body.match(/<section class="sheet per-4">/g)).toHaveLength(1);
    expect((await r.api!.inject({ url: `/events/${SWISS}/cards.html?round=1&perPage=3` })).statusCode).toBe(400);
  });

  it('round 2 proposed from a TRF: refused until an arbiter approves it, then printed as approved', async () => {
    const r = await start();
    const api = r.api!;
    expect((await api.inject({ url: `/events/${SWISS}/pairings.html` })).statusCode).toBe(400); // the round is required
    await confirmRound(r.host, 1, ['1-0', '0-1', '1-0']);
    await r.host.idle(); // the engine (--mode=exit) fails: the arbiter loads a TRF instead
    const trf = addRoundToTrf(
      r.exports.trf(SWISS, 1),
      1,
      [
        [2, 1],
        [4, 3],
        [5, 6],
      ],
      7,
    );
    expect((await api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds`, headers, payload: { trf } })).statusCode).toBe(201);
    const early = await api.inject({ url: `/events/${SWISS}/pairings.html?round=2` });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(`event "${SWISS}" has no pairings for round 2 (rounds 1-1 are paired)`);
    expect((await api.inject({ method: 'POST', url: `/api/events/${SWISS}/rounds/2/approve`, headers })).statusCode).toBe(200);

    const res = await api.inject({ url: `/events/${SWISS}/pairings.html?round=2` });
    expect(res.statusCode).toBe(200);
    expect(rows(res.body, 'by-board').map((c) => [c[0], c[2], c[7]])).toEqual([
      ['1', '2', '1'],
      ['2', '4', '3'],
      ['3', '5', '6'],
    ]);
    expect(res.body).toContain('<li data-player="7">Sedmi, Igralec: pairing-allocated bye (1.0)</li>');
    const cards = await api.inject({ url: `/events/${SWISS}/cards.html?round=2` });
    expect([...cards.body.matchAll(/<article class="card" data-board="(\d+)"/g)].map((m) => m[1])).toEqual(['1', '2', '3']);
    expect(cards.body).toContain('<div class="round">Round 2</div>');
  });
});
