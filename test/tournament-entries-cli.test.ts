// `chessclock tournament entry|withdraw|bye|round-start --host URL --event ID …` (docs/tournament.md
// "Entries"): an arbiter's entries into a running host, the real command spawned against a real host
// started in the test (host/start-host.ts, HTTP on 127.0.0.1), the arbiter token from
// CHESSCLOCK_TOKEN or --token-file, never from the command line. Each prints what the host
// journaled, with the arbiter; a refusal is the host's reason, exit 1;
// bad usage names the option, exit 2.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../host/start-host.ts';
import { Journal } from '../host/store/journal.ts';
import { parseTournament } from '../host/domain/tournament-file.ts';
import { LATE_ENTRY, REQUESTED_BYE, ROUND_START, WITHDRAW } from '../host/app/entries.ts';
import { ARBITER, stoppedClock, SWISS, swissBeforeRound1 } from '../host/app/next-round.fixture.ts';

const BIN = fileURLToPath(new URL('../bin/chessclock.mjs', import.meta.url));
const TOKEN = 'entries-cli-arbiter-token-0123456789';

/** Runs the real command without blocking this process's event loop (the host answers from it). */
function chessclock(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const { CHESSCLOCK_TOKEN: _drop, ...base } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'tournament', ...args], { encoding: 'utf8', env: { ...base, ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ status: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'entries-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const running: RunningHost[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

describe('chessclock tournament entry|withdraw|bye|round-start --host', () => {
  it("enters each into the running host (journaled with the arbiter), and passes on the host's refusal with its reason", async () => {
    // A Swiss before round 1, no engine: round 1 waits for a pairing program's TRF.
    const raw = swissBeforeRound1();
    delete (raw.events[0] as { pairingEngine?: unknown }).pairingEngine;
    const journal = new Journal(':memory:');
    const r = await startHost({
      journal,
      hall: parseTournament(raw),
      clock: stoppedClock(),
      http: { listen: { host: '127.0.0.1', port: 0 }, tokens: [{ arbiter: ARBITER, token: TOKEN }], dashboard: false },
      log: () => undefined,
    });
    running.push(r);
    const host = ['--host', r.url!, '--event', SWISS];
    const env = { CHESSCLOCK_TOKEN: TOKEN };
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, `${TOKEN}\n`);

    const entry = await chessclock(['entry', ...host, '--name', 'Osmi, Igralec', '--rating', '2050', '--federation', 'SLO'], env);
    expect(entry.stderr).toBe('');
    expect(entry.stdout).toMatch(
      new RegExp(`^${SWISS}: Osmi, Igralec entered as player 8, from round 1 \\(by ${ARBITER.replace(/[()]/g, '\\$&')}, journal action \\d+\\)\n$`),
    );
    const withdraw = await chessclock(['withdraw', ...host, '--player', '3', '--token-file', tokenFile]);
    expect(withdraw.stdout).toContain(`${SWISS}: player 3 Tretji, Igralec withdrawn from round 1 on (by ${ARBITER}`);
    const bye = await chessclock(['bye', ...host, '--player', '5', '--round', '2', '--points', '0'], env);
    expect(bye.stdout).toContain(`${SWISS} round 2: player 5 Peti, Igralec has a requested bye, 0 point(s), TRF code Z (by ${ARBITER}`);
    const start = await chessclock(['round-start', ...host, '--round', '1', '--start', '2026-04-04T15:00+02:00'], env);
    expect(start.stdout).toContain(`${SWISS} round 1: starts 2026-04-04T13:00:00.000Z (by ${ARBITER}`);
    expect(
      journal
        .arbiterActions()
        .filter((a) => [LATE_ENTRY, WITHDRAW, REQUESTED_BYE, ROUND_START].includes(a.action))
        .map((a) => [a.action, a.arbiter]),
    ).toEqual([
      [LATE_ENTRY, ARBITER],
      [WITHDRAW, ARBITER],
      [REQUESTED_BYE, ARBITER],
      [ROUND_START, ARBITER],
    ]);

    // The host's refusal, with its reason: exit 1, nothing printed on stdout.
    const again = await chessclock(['withdraw', ...host, '--player', '3'], env);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('the host refused it (409 Conflict): the withdrawal of player 3: already withdrawn from round 1 on');
    expect(again.stdout).toBe('');
    // Bad usage names the option: exit 2, nothing sent.
    for (const [args, message] of [
      [['bye', ...host, '--player', '5', '--round', '2', '--points', '2'], '--points 2: expected 0, 0.5 or 1'],
      [['withdraw', ...host, '--player', '5', '--round', '2'], '--round does not go with withdraw'],
      [['withdraw', ...host, '--player', '5', '--token', TOKEN], 'the arbiter token is never taken on the command line'],
      [['bye', '--host', r.url!, '--event', SWISS, '--player', '5'], '--round is required'],
    ] as const) {
      const out = await chessclock([...args], env);
      expect(out.status, args.join(' ')).toBe(2);
      expect(out.stderr).toContain(message);
    }
    expect(journal.arbiterActions().filter((a) => a.action === REQUESTED_BYE)).toHaveLength(1);
  }, 120_000);
});
