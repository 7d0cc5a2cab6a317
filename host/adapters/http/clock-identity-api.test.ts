// The arbiter's choice between two lines claiming one clock id over the API (docs/api.md "Clock
// identity"), on a host composed by host/start-host.ts. The claim itself and both choices end to
// end on real ptys: test/clock-identity.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../start-host.ts';
import { Journal } from '../../store/journal.ts';
import { parseTournament } from '../../domain/tournament-file.ts';
import { ARBITER, stoppedClock, swissTournament } from '../../app/next-round.fixture.ts';

const TOKEN = 'clock-identity-arbiter-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}` };
const running: RunningHost[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

describe('POST /api/clocks/:clockId/identity (docs/api.md "Clock identity")', () => {
  it('is an arbiter\'s write, takes only "online" or "newcomer", and answers 409 with the reason when no line claims the id', async () => {
    const journal = new Journal(':memory:');
    const r = await startHost({
      journal,
      hall: parseTournament(swissTournament()),
      clock: stoppedClock(),
      http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [{ arbiter: ARBITER, token: TOKEN }], dashboard: false },
      log: () => undefined,
    });
    running.push(r);
    const api = r.api!;
    const url = '/api/clocks/CLK-01/identity';
    expect((await api.inject({ method: 'POST', url, payload: { line: '/dev/ttyUSB3', keep: 'online' } })).statusCode).toBe(401);
    const bad = await api.inject({ method: 'POST', url, headers, payload: { line: '/dev/ttyUSB3', keep: 'both' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/keep/);
    const none = await api.inject({ method: 'POST', url, headers, payload: { line: '/dev/ttyUSB3', keep: 'newcomer' } });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe('no line /dev/ttyUSB3 claims clock CLK-01 now (no claim on it is open)');
    // Journaled with who asked, as every arbiter action is, refused ones too.
    expect(journal.arbiterActions().at(-1)).toMatchObject({ action: 'clock-identity', arbiter: ARBITER, clockId: 'CLK-01', outcome: 'rejected' });
  });
});
