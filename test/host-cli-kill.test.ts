// A fault as a user meets it: `chessclock host` killed (SIGKILL) mid-game and started again
// on the same `--db` must resume the games in progress. The real command in a child
// process, its clocks on real serial lines (socat pty pairs, the serialport package): the
// unchanged firmware on virtual boards in this process. After the kill the clocks play on
// into their outboxes; the restarted host delivers those presses first, holds every board and
// brings it to the journal (docs/protocol.md "Restore"): each stands paused at exactly the
// journal's times; the arbiter resumes over the API and the games are played to a result.
// Needs the Debian package `socat` (skipped locally without it, never under CI).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openPtyPair, ptySkipReason, type PtyPair } from '../protocol/session-api.ts';
import { presetTimeControl } from '../protocol/time-control.ts';
import type { BoardView, ClockEventRecord } from '../host/app/ports.ts';
import { SimClock, simulatedHall, waitFor } from './e2e-harness.ts';

const skip = ptySkipReason();
if (skip) console.warn(skip);

const BIN = fileURLToPath(new URL('../bin/chessclock.mjs', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../host/domain/fixtures/slovenian-final-2007.json', import.meta.url));
const TOKEN = 'a-long-arbiter-token-kill-1';
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** The host's stderr lines, and a wait for one that matches. */
function stderrOf(child: ChildProcess): { lines: string[]; waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray> } {
  const lines: string[] = [];
  let buf = '';
  child.stderr!.on('data', (c: Buffer) => {
    buf += c.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
  });
  return {
    lines,
    waitFor: async (re, timeoutMs = 30_000) => {
      let m: RegExpMatchArray | null = null;
      await waitFor(`a host line matching ${re}`, () => lines.some((l) => (m = l.match(re)) !== null), timeoutMs).catch((err: Error) => {
        throw new Error(`${err.message}; the host said:\n${lines.join('\n')}`);
      });
      return m!;
    },
  };
}

describe.skipIf(skip !== null)(
  '`chessclock host` killed mid-game and restarted on the same journal resumes its games (docs/protocol.md "Restore: Held and Restore")',
  () => {
    const children: ChildProcess[] = [];
    const ptys: PtyPair[] = [];
    const clocks: SimClock[] = [];
    let dir = '';
    afterEach(async () => {
      for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
      for (const c of clocks.splice(0)) c.stop();
      await Promise.all(ptys.splice(0).map((p) => p.close()));
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('every board comes back paused at exactly the journal’s times, and plays on to a confirmed result', async () => {
      dir = mkdtempSync(join(tmpdir(), 'host-kill-'));
      const { sim } = simulatedHall(Date.UTC(2007, 7, 16, 14, 0));
      const ports: { path: string; table: number }[] = [];
      for (const table of [1, 2]) {
        const pty = await openPtyPair();
        ptys.push(pty);
        const clock = await SimClock.boot(`CLK-0${table}`, sim, presetTimeControl('rapid'));
        clocks.push(clock);
        await clock.connectPty(pty.b);
        const path = join(dir, `clock-table-${table}`);
        symlinkSync(pty.a, path);
        ports.push({ path, table });
      }
      writeFileSync(join(dir, 'ports.json'), JSON.stringify(ports));
      const db = join(dir, 'clocks.db');
      const startHost = async () => {
        const child = spawn(
          process.execPath,
          [
            BIN,
            'host',
            '--db',
            db,
            '--tournament',
            FIXTURE,
            '--ports',
            join(dir, 'ports.json'),
            '--no-scan',
            '--http',
            '127.0.0.1:0',
            '--token',
            `Ana Srebrnič:${TOKEN}`,
          ],
          { stdio: ['ignore', 'ignore', 'pipe'] },
        );
        children.push(child);
        const io = stderrOf(child);
        const url = (await io.waitFor(/API and dashboard on (http:\/\/127\.0\.0\.1:\d+)/))[1];
        return { child, io, url };
      };
      let host = await startHost();
      const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
        const res = await fetch(`${host.url}${path}`, init);
        const body = (await res.json()) as T;
        if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${JSON.stringify(body)}`);
        return body;
      };
      const board = async (n: number) => (await api<{ boards: BoardView[] }>('/api/boards')).boards.find((b) => b.event === 'slo-w-2007' && b.board === n)!;
      const moves = async (n: number) =>
        (await api<{ events: ClockEventRecord[] }>(`/api/boards/${(await board(n)).id}/events?limit=1000`)).events.filter((e) => e.type === 'moved');
      const press = async (c: SimClock, n: number) => {
        for (let i = 0; i < n; i++) {
          sim.advanceBy(45_000);
          await c.press(c.clock.firmware.state().turn);
        }
      };
      await waitFor('both clocks configured for their games', () => clocks.every((c) => c.clock.firmware.gameId !== null), 30_000);
      for (const n of [1, 2]) await api(`/api/boards/${(await board(n)).id}/start`, { method: 'POST', headers: auth, body: '{}' });
      await waitFor('both clocks started', () => clocks.every((c) => c.clock.firmware.reading().status === 'running'), 15_000);
      await press(clocks[0], 6);
      await press(clocks[1], 3);
      await waitForAsync('9 presses journaled', async () => (await moves(1)).length === 6 && (await moves(2)).length === 3);

      // Killed: no goodbye to the clocks. They play on; the presses wait in their outboxes.
      host.child.kill('SIGKILL');
      await new Promise((r) => host.child.once('exit', r));
      await press(clocks[0], 2);
      sim.advanceBy(60_000);

      host = await startHost();
      await waitForAsync('both boards brought to the journal', async () => (await board(1)).restore !== undefined && (await board(2)).restore !== undefined);
      // The presses made while the host was down came first, each once.
      expect((await moves(1)).map((e) => [e.side, e.move])).toEqual([
        ['white', 1],
        ['black', 1],
        ['white', 2],
        ['black', 2],
        ['white', 3],
        ['black', 3],
        ['white', 4],
        ['black', 4],
      ]);
      for (const n of [1, 2]) {
        const view = await board(n);
        const own = clocks[n - 1].clock.firmware.reading();
        expect(view.restore, `board ${n}`).toMatchObject({ outcome: 'in-step', differences: [], mismatches: [] });
        expect(own.status, `board ${n} clock`).toBe('paused');
        expect(view.live, `board ${n} view`).toMatchObject({ status: 'paused', whiteMs: own.white, blackMs: own.black, moves: own.moves });
        const last = (await api<{ events: ClockEventRecord[] }>(`/api/boards/${view.id}/events?limit=1000`)).events.at(-1)!;
        expect([last.type, last.whiteMs, last.blackMs], `board ${n}: the journal's last event`).toEqual(['paused', own.white, own.black]);
      }
      expect(host.io.lines.some((l) => /clock CLK-01: holds the journal's game slo-w-2007 round 1 board 1 game 1, stopped/.test(l))).toBe(true);

      // The arbiter resumes; the games go on to a result the players key in; the arbiter confirms.
      for (const n of [1, 2]) {
        const id = (await board(n)).id;
        await api(`/api/boards/${id}/resume`, { method: 'POST', headers: auth, body: '{}' });
        const c = clocks[n - 1];
        await waitFor(`board ${n} running again`, () => c.clock.firmware.reading().status === 'running', 15_000);
        await press(c, 2);
        await c.enterResult('1/2-1/2');
        await waitForAsync(`board ${n}'s result`, async () => (await board(n)).result === '1/2-1/2');
        await api(`/api/boards/${id}/result/confirm`, { method: 'POST', headers: auth, body: '{}' });
      }
      expect((await moves(1)).length).toBe(10);
      expect((await moves(2)).length).toBe(5);
    }, 120_000);
  },
);

async function waitForAsync(what: string, cond: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
