// `chessclock host --broadcast` as an organiser runs it (docs/broadcast.md "From the command
// line"): the token from a file, never on the command line nor in the log; the round's games
// reach the lichess stand-in (host/adapters/broadcast/lichess-stand-in.fixture.ts) as soon as the
// host has opened the round; a broadcast without a token is refused in one line (exit 2).
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LichessStandIn, type StandInPush } from '../host/adapters/broadcast/lichess-stand-in.fixture.ts';
import { readWithChessops } from '../host/adapters/broadcast/chessops-reader.fixture.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/chessclock.mjs');
const FIXTURE = join(ROOT, 'host/domain/fixtures/slovenian-final-2007.json');
const TOKEN = 'lip_fromTheTokenFile';
const dir = mkdtempSync(join(tmpdir(), 'broadcast-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { ...process.env, CHESSCLOCK_DEBUG: '', CHESSCLOCK_LICHESS_TOKEN: '' };

describe('chessclock host --broadcast', () => {
  it('refuses a broadcast without a token, in one line (exit 2)', async () => {
    const args = [BIN, 'host', '--db', join(dir, 'refused.db'), '--tournament', FIXTURE, '--no-scan', '--broadcast', 'slo-open-2007/1=lichess:aBcD1234'];
    const [code, stderr] = await new Promise<[number | null, string]>((resolve) =>
      execFile(process.execPath, args, { cwd: ROOT, env, timeout: 60_000 }, (err, _out, stderr) =>
        resolve([err ? ((err as { code?: number }).code ?? null) : 0, stderr]),
      ),
    );
    expect([code, stderr]).toEqual([
      2,
      'chessclock host: --broadcast needs a lichess token (scope study:write): set CHESSCLOCK_LICHESS_TOKEN or give --lichess-token-file FILE\n',
    ]);
  }, 90_000);

  it("pushes the round's games to the lichess round with the file's token, which the log never shows", async () => {
    const standIn = new LichessStandIn({ [TOKEN]: { user: 'organiser', scopes: ['study:write'] } }, { sloOpen1: { contributors: ['organiser'] } });
    const lichess = await standIn.start();
    const tokenFile = join(dir, 'lichess.token');
    writeFileSync(tokenFile, `${TOKEN}\n`);
    const host = spawn(
      process.execPath,
      [BIN, 'host', '--db', join(dir, 'host.db'), '--tournament', FIXTURE, '--no-scan', '--http', '127.0.0.1:0'].concat([
        '--broadcast',
        'slo-open-2007/1=lichess:sloOpen1',
        '--lichess-url',
        lichess,
        '--lichess-token-file',
        tokenFile,
      ]),
      { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    host.stderr.on('data', (d) => (stderr += d));
    try {
      const [push] = (await once(standIn, 'push')) as [StandInPush];
      expect([push.status, push.roundId, push.authorization]).toEqual([200, 'sloOpen1', `Bearer ${TOKEN}`]);
      // The open event's one board (the tournament file's round 1), with the host's tags and no moves yet.
      const [game] = readWithChessops(push.body);
      expect([game.tags.GameId, game.tags.Round, game.tags.White, game.tags.Black, game.tags.TimeControl, game.error]).toEqual([
        'slo-open-2007:1.1.1',
        '1.1',
        'Prvi, Igralec',
        'Drugi, Igralec',
        '40/5400+30:900+30',
        null,
      ]);
    } finally {
      host.kill('SIGTERM');
      await once(host, 'exit');
      await standIn.stop();
    }
    expect(stderr).toContain('broadcasting round 1 of slo-open-2007 to lichess round sloOpen1');
    expect(stderr).not.toContain(TOKEN);
  }, 90_000);

  it('runs the tournament file\'s broadcast block as --broadcast does, the token still only from the environment or a file (docs/tournament.md "The broadcast block")', async () => {
    const raw = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    const open = raw.events.find((e: { id: string }) => e.id === 'slo-open-2007');
    open.broadcast = { rounds: { '1': 'sloFile1' } };
    const file = join(dir, 'with-block.json');
    writeFileSync(file, JSON.stringify(raw));
    const base = [BIN, 'host', '--tournament', file, '--no-scan'];
    const refused = await new Promise<[number | null, string]>((resolve) =>
      execFile(process.execPath, [...base, '--db', join(dir, 'block-refused.db')], { cwd: ROOT, env, timeout: 60_000 }, (err, _out, stderr) =>
        resolve([err ? ((err as { code?: number }).code ?? null) : 0, stderr]),
      ),
    );
    expect(refused).toEqual([
      2,
      "chessclock host: the tournament file's broadcast block needs a lichess token (scope study:write): set CHESSCLOCK_LICHESS_TOKEN or give --lichess-token-file FILE\n",
    ]);
    const standIn = new LichessStandIn({ [TOKEN]: { user: 'organiser', scopes: ['study:write'] } }, { sloFile1: { contributors: ['organiser'] } });
    const lichess = await standIn.start();
    const host = spawn(process.execPath, [...base, '--db', join(dir, 'block.db'), '--http', '127.0.0.1:0', '--lichess-url', lichess], {
      cwd: ROOT,
      env: { ...env, CHESSCLOCK_LICHESS_TOKEN: TOKEN },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    host.stderr.on('data', (d) => (stderr += d));
    try {
      const [push] = (await once(standIn, 'push')) as [StandInPush];
      expect([push.status, push.roundId, readWithChessops(push.body).map((g) => g.tags.GameId)]).toEqual([200, 'sloFile1', ['slo-open-2007:1.1.1']]);
    } finally {
      host.kill('SIGTERM');
      await once(host, 'exit');
      await standIn.stop();
    }
    expect(stderr).not.toContain(TOKEN);
  }, 90_000);

  it('--broadcast-delay: a wrong value is refused in one line (exit 2); with 900 s the public feed holds back the round the live export shows, and the start warns of what stays live', async () => {
    const refused = await new Promise<[number | null, string]>((resolve) =>
      execFile(
        process.execPath,
        [BIN, 'host', '--db', join(dir, 'delay-refused.db'), '--tournament', FIXTURE, '--no-scan', '--broadcast-delay', 'slo-open-2007=15m'],
        { cwd: ROOT, env, timeout: 60_000 },
        (err, _out, stderr) => resolve([err ? ((err as { code?: number }).code ?? null) : 0, stderr]),
      ),
    );
    expect(refused).toEqual([
      2,
      'chessclock host: --broadcast-delay slo-open-2007=15m: "15m" is not a delay in whole seconds from 0 to 86400, e.g. 900 for 15 minutes\n',
    ]);

    const host = spawn(
      process.execPath,
      [BIN, 'host', '--db', join(dir, 'delay.db'), '--tournament', FIXTURE, '--no-scan', '--http', '127.0.0.1:0', '--broadcast-delay', 'slo-open-2007=900'],
      { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    const url = new Promise<string>((resolve) =>
      host.stderr.on('data', (d) => {
        stderr += d;
        const m = /API and dashboard on (\S+)/.exec(stderr);
        if (m) resolve(m[1]);
      }),
    );
    try {
      const base = await url;
      const live = await (await fetch(`${base}/api/export/pgn?round=1&event=slo-open-2007`)).text();
      expect(readWithChessops(live).map((g) => g.tags.GameId)).toEqual(['slo-open-2007:1.1.1']);
      const feed = await fetch(`${base}/broadcast/round/1/games.pgn?event=slo-open-2007`);
      expect([feed.status, await feed.text()]).toEqual([200, '']);
    } finally {
      host.kill('SIGTERM');
      await once(host, 'exit');
    }
    expect(stderr).toContain(
      "warning: broadcast delay (slo-open-2007 900 s) holds back the lichess push and /broadcast/round/N/games.pgn only; the API's reads and /public stay live",
    );
  }, 90_000);
});
