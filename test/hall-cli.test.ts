// `chessclock hall` (what `npm start` runs) as a person starts it: a process that prints the
// dashboard URL and an arbiter token, serves the hall's boards with the simulated clocks
// online, accepts the printed token, and stops cleanly on Ctrl-C (SIGINT), removing its
// temporary journal. Bad options are refused with the option named (exit status 2).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = 'bin/chessclock.mjs';

function linesOf(child: ChildProcess): { out: string[]; waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray> } {
  const out: string[] = [];
  let buf = '';
  child.stdout!.on('data', (c: Buffer) => {
    buf += c.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    out.push(...parts);
  });
  return {
    out,
    waitFor: (re, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const until = Date.now() + timeoutMs;
        const poll = () => {
          for (const l of out) {
            const m = l.match(re);
            if (m) return resolve(m);
          }
          if (Date.now() > until) return reject(new Error(`no line matching ${re} in:\n${out.join('\n')}`));
          setTimeout(poll, 50);
        };
        poll();
      }),
  };
}

describe('chessclock hall (npm start)', () => {
  let child: ChildProcess | null = null;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    child = null;
  });

  it('prints the dashboard URL and a token, serves the boards with the clocks online, and stops on SIGINT', async () => {
    child = spawn(process.execPath, [BIN, 'hall', '--http', '0', '--clocks', '2', '--speed', '50', '--seed', '5'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const io = linesOf(child);
    const url = (await io.waitFor(/^dashboard:\s+(http:\/\/127\.0\.0\.1:\d+)\/$/))[1];
    const token = (await io.waitFor(/^arbiter token:\s+(\S+)/))[1];
    const journal = (await io.waitFor(/journal (\S+)$/))[1];
    expect(existsSync(journal)).toBe(true);

    // The page and the boards of both fixtures (11 boards: 3 Slovenian, 8 Ivanovo).
    expect((await fetch(`${url}/`)).status).toBe(200);
    let boards: Array<{ id: string; event: string; clockId: string | null; clockOnline?: boolean }> = [];
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      boards = ((await (await fetch(`${url}/api/boards`)).json()) as { boards: typeof boards }).boards;
      if (boards.filter((b) => b.clockOnline).length === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(boards).toHaveLength(11);
    expect(new Set(boards.map((b) => b.event))).toEqual(new Set(['slo-w-2007', 'slo-open-2007', 'ivanovo-2018']));
    expect(boards.filter((b) => b.clockOnline).map((b) => b.clockId).sort()).toEqual(['sim-1', 'sim-2']);
    // The printed token is an arbiter's (writes need it: docs/api.md).
    const who = await fetch(`${url}/api/arbiter`, { headers: { authorization: `Bearer ${token}` } });
    expect(who.status).toBe(200);
    expect((await fetch(`${url}/api/arbiter`, { headers: { authorization: 'Bearer not-the-token-0000000' } })).status).toBe(401);

    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(dirname(journal))).toBe(false); // the temporary journal is gone
  }, 40_000);

  it('refuses bad options, naming them', () => {
    const r = spawnSync(process.execPath, [BIN, 'hall', '--speed', 'fast'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--speed fast: expected a number > 0');
    const t = spawnSync(process.execPath, [BIN, 'hall', '--token', 'nosecret'], { encoding: 'utf8' });
    expect(t.status).toBe(2);
    expect(t.stderr).toContain('--token');
  });
});
