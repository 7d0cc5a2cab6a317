// `chessclock tournament import-trf FILE --next-round` (docs/tournament.md "Pairing the next
// round"): a pairing program's TRF with the next round paired, printed as the tournament-file round
// to append, or loaded into a running host (`--host URL --event ID`, POST /api/events/:event/rounds)
// where it waits for an arbiter's approval. Spawns the real command against a real host started in
// the test (host/start-host.ts, HTTP on 127.0.0.1); the arbiter token comes from CHESSCLOCK_TOKEN or
// --token-file, never from the command line.
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../host/start-host.ts';
import { Journal } from '../host/store/journal.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { PROPOSE_ROUND } from '../host/app/proposal-records.ts';
import { eventTrf } from '../host/adapters/exports/trf-event.ts';
import { testCertificate } from './test-certificate.ts';
import { addRoundToTrf, ARBITER, confirmRound, stoppedClock, SWISS, swissBeforeRound1, swissTournament } from '../host/app/next-round.fixture.ts';

const BIN = fileURLToPath(new URL('../bin/chessclock.mjs', import.meta.url));
const TOKEN = 'import-trf-cli-arbiter-token-0123456789';

/** Runs the real command without blocking this process's event loop (the host answers from it). */
function chessclock(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const { CHESSCLOCK_TOKEN: _drop, ...base } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, 'tournament', 'import-trf', ...args],
      { encoding: 'utf8', env: { ...base, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        resolve({ status: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
      },
    );
  });
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'import-trf-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const running: RunningHost[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

async function start(raw: unknown, https?: { cert: string; key: string }): Promise<RunningHost> {
  const host = await startHost({
    journal: new Journal(':memory:'),
    hall: parseTournament(raw),
    clock: stoppedClock(),
    http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [{ arbiter: ARBITER, token: TOKEN }], dashboard: false, ...(https ? { https } : {}) },
    log: () => undefined,
  });
  running.push(host);
  return host;
}

/** A host whose round 1 is confirmed (its engine fails: --mode=exit), and the TRF with round 2 paired as a program writes it. */
async function afterRound1(): Promise<{ r: RunningHost; trf: string; file: string }> {
  const r = await start(swissTournament(['--mode=exit']));
  await confirmRound(r.host, 1, ['1-0', '0-1', '1-0']);
  await r.host.idle();
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
  const file = join(dir, `round2-${running.length}.trf`);
  writeFileSync(file, trf);
  return { r, trf, file };
}

const proposalsOf = (r: RunningHost) => r.journal.arbiterActions().filter((a) => a.action === PROPOSE_ROUND && a.outcome === 'applied');

describe('chessclock tournament import-trf --next-round', () => {
  it("--host: loads the TRF's round into the running host as proposed (the token from CHESSCLOCK_TOKEN), prints the proposal; nothing opens until approved", {
    timeout: 60_000,
  }, async () => {
    const { r, trf, file } = await afterRound1();
    const out = await chessclock([file, '--next-round', '--host', r.url!, '--event', SWISS], { CHESSCLOCK_TOKEN: TOKEN });
    expect([out.status, out.stderr]).toEqual([0, '']);
    const [filed] = proposalsOf(r);
    expect(filed).toMatchObject({ arbiter: ARBITER, event: SWISS, round: 2, payload: expect.objectContaining({ source: 'trf', trf }) });
    expect(out.stdout).toBe(
      `${SWISS} round 2: proposed from the TRF by ${ARBITER} (journal action ${filed.id}); nothing is opened until an arbiter approves it (dashboard, Next round; or POST /api/events/${SWISS}/rounds/2/approve)\n` +
        '  board 1: 2 Drugi, Igralec - 1 Prvi, Igralec\n  board 2: 4 Četrti, Igralec - 3 Tretji, Igralec\n  board 3: 5 Peti, Igralec - 6 Šesti, Igralec\n  bye (U): 7 Sedmi, Igralec\n',
    );
    expect(r.journal.gamesByRound(SWISS, 2)).toEqual([]);
    expect(await r.host.approveRound(SWISS, 2, { arbiter: ARBITER })).toMatchObject({ ok: true, round: 2 });
    expect(r.journal.gamesByRound(SWISS, 2).map((g) => [g.board, g.whiteRank, g.blackRank])).toEqual([
      [1, 2, 1],
      [2, 4, 3],
      [3, 5, 6],
    ]);
  });

  it("--host: the host's refusal is printed with its status and the TRF line and field (exit 1); a wrong token is refused (401); nothing is filed", {
    timeout: 60_000,
  }, async () => {
    const { r, trf } = await afterRound1();
    // Player 5 lost round 1 (journal 0); the TRF says 1 (TRF16 round 1 result: column 99).
    const lines = trf.split('\r\n');
    const at = lines.findIndex((l) => l.startsWith('001    5'));
    lines[at] = lines[at].slice(0, 98) + '1' + lines[at].slice(99);
    const wrong = join(dir, 'wrong-result.trf');
    writeFileSync(wrong, lines.join('\r\n'));
    const tokenFile = join(dir, 'token.txt');
    writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    const [refused, badToken] = await Promise.all([
      chessclock([wrong, '--next-round', '--host', r.url!, '--event', SWISS, '--token-file', tokenFile]),
      chessclock([wrong, '--next-round', '--host', r.url!, '--event', SWISS], { CHESSCLOCK_TOKEN: 'not-the-token-at-all-0123456789' }),
    ]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      `chessclock tournament import-trf: the host refused ${wrong} as event "${SWISS}"'s next round (422 Unprocessable Entity): TRF line ${at + 1}, columns 99 (round 1 result): player 5 has "0001 b 1" in the TRF, the journal "0001 b 0"\n`,
    );
    expect(badToken.status).toBe(1);
    expect(badToken.stderr).toMatch(/the host refused .* \(401 Unauthorized\)/);
    expect(proposalsOf(r)).toEqual([]);
  });

  it('round 1 from a pairing program: a host with no round in its file and no engine takes the TRF before round 1 with round 1 paired', {
    timeout: 60_000,
  }, async () => {
    const raw = swissBeforeRound1();
    delete (raw.events[0] as { pairingEngine?: unknown }).pairingEngine;
    const r = await start(raw);
    // The program's file: the players (the host's TRF before round 1) and round 1 paired, unplayed.
    const trf = addRoundToTrf(
      eventTrf(r.journal, r.host.hall, SWISS, { upToRound: 0 }),
      0,
      [
        [1, 4],
        [5, 2],
        [3, 6],
      ],
      7,
    );
    const file = join(dir, 'round1.trf');
    writeFileSync(file, trf);
    const out = await chessclock([file, '--next-round', '--host', r.url!, '--event', SWISS], { CHESSCLOCK_TOKEN: TOKEN });
    expect([out.status, out.stderr]).toEqual([0, '']);
    expect(out.stdout).toMatch(new RegExp(`^${SWISS} round 1: proposed from the TRF`));
    expect(await r.host.approveRound(SWISS, 1, { arbiter: ARBITER })).toMatchObject({ ok: true, round: 1 });
    expect(r.journal.gamesByRound(SWISS, 1).map((g) => [g.whiteRank, g.blackRank])).toEqual([
      [1, 4],
      [5, 2],
      [3, 6],
    ]);
  });

  it('without --host: prints the round to append to the tournament file, which then loads with it; a played last round is refused naming line and column', {
    timeout: 60_000,
  }, async () => {
    const { trf, file } = await afterRound1();
    const played = trf.replace(/^(001 {4}2.{93}.{7}) /m, '$11');
    expect(played).not.toBe(trf);
    const playedFile = join(dir, 'played.trf');
    writeFileSync(playedFile, played);
    const [out, refused] = await Promise.all([chessclock([file, '--next-round']), chessclock([playedFile, '--next-round'])]);
    expect([out.status, out.stderr]).toEqual([0, '']);
    const round = JSON.parse(out.stdout);
    expect(round).toEqual({
      number: 2,
      boards: [
        { board: 1, white: 2, black: 1 },
        { board: 2, white: 4, black: 3 },
        { board: 3, white: 5, black: 6 },
      ],
      byes: [{ player: 7, kind: 'U' }],
    });
    const raw = swissTournament();
    (raw.events[0].rounds as unknown[]).push(round);
    expect(parseTournament(raw).events[0].rounds.map((r) => r.number)).toEqual([1, 2]);
    const line = played.split('\r\n').findIndex((l) => l.startsWith('001    2')) + 1;
    expect([refused.status, refused.stderr]).toEqual([
      1,
      `chessclock tournament import-trf: ${playedFile}: TRF line ${line}, columns 109 (round 2 result): player 2 already has result "1"; a next round is paired and unplayed\n`,
    ]);
  });

  it("--host https://: the host's certificate is checked (a self-signed one trusted through NODE_EXTRA_CA_CERTS, else refused)", {
    timeout: 60_000,
  }, async () => {
    const cert = await testCertificate();
    const r = await start(swissTournament(['--mode=exit']), cert);
    expect(r.url!.startsWith('https://127.0.0.1:')).toBe(true);
    await confirmRound(r.host, 1, ['1-0', '0-1', '1-0']);
    await r.host.idle();
    const file = join(dir, 'round2-https.trf');
    writeFileSync(
      file,
      addRoundToTrf(
        r.exports.trf(SWISS, 1),
        1,
        [
          [2, 1],
          [4, 3],
          [5, 6],
        ],
        7,
      ),
    );
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, cert.cert);
    const untrusted = await chessclock([file, '--next-round', '--host', r.url!, '--event', SWISS], { CHESSCLOCK_TOKEN: TOKEN });
    expect(untrusted.status).toBe(1);
    expect(untrusted.stderr).toMatch(
      /cannot reach the host at https:\/\/127\.0\.0\.1:\d+: (SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE)/,
    );
    expect(proposalsOf(r)).toEqual([]);
    const trusted = await chessclock([file, '--next-round', '--host', r.url!, '--event', SWISS], { CHESSCLOCK_TOKEN: TOKEN, NODE_EXTRA_CA_CERTS: ca });
    expect([trusted.status, trusted.stderr]).toEqual([0, '']);
    expect(proposalsOf(r)).toEqual([expect.objectContaining({ arbiter: ARBITER, round: 2 })]);
  });

  it('usage: the token is never taken on the command line; --host needs --event and a token; an unreachable host is named (exit 1)', {
    timeout: 60_000,
  }, async () => {
    const file = join(dir, 'any.trf');
    writeFileSync(file, '012 Any\r\n');
    // A loopback port that was free a moment ago: nothing listens there now.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closed = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    const [onCommandLine, noEvent, noToken, mixed, unreachable] = await Promise.all([
      chessclock([file, '--next-round', '--host', 'http://127.0.0.1:9', '--event', SWISS, '--token', 'secret-on-the-command-line']),
      chessclock([file, '--next-round', '--host', 'http://127.0.0.1:9'], { CHESSCLOCK_TOKEN: TOKEN }),
      chessclock([file, '--next-round', '--host', 'http://127.0.0.1:9', '--event', SWISS]),
      chessclock([file, '--next-round', '--id', 'x']),
      chessclock([file, '--next-round', '--host', `http://127.0.0.1:${closed}`, '--event', SWISS], { CHESSCLOCK_TOKEN: TOKEN }),
    ]);
    expect([onCommandLine.status, onCommandLine.stderr]).toEqual([
      2,
      'chessclock tournament import-trf: the arbiter token is never taken on the command line (ps shows it to every user): set CHESSCLOCK_TOKEN or give --token-file FILE\n',
    ]);
    expect([noEvent.status, noEvent.stderr]).toEqual([2, 'chessclock tournament import-trf: --host needs --event ID: the event whose next round this is\n']);
    expect([noToken.status, noToken.stderr]).toEqual([
      2,
      'chessclock tournament import-trf: no arbiter token: set the environment variable CHESSCLOCK_TOKEN or give --token-file FILE\n',
    ]);
    expect([mixed.status, mixed.stderr]).toEqual([2, 'chessclock tournament import-trf: --id is for the whole tournament file, not --next-round\n']);
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toBe(`chessclock tournament import-trf: cannot reach the host at http://127.0.0.1:${closed}: ECONNREFUSED\n`);
  });
});
