// Helpers for cli/replay.cli.test.ts: run the real `node bin/chessclock.mjs replay` as a
// child process and generate large JSON Lines inputs on disk.

import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = join(root, 'bin', 'chessclock.mjs');
const RSS_PROBE = join(root, 'cli', 'replay.cli.rss-probe.cjs');

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `chessclock replay ARGS` with `stdin` as its input. */
export function runReplay(args: string[], stdin = ''): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'replay', ...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

export const jsonLines = (objs: object[]) => objs.map((o) => JSON.stringify(o)).join('\n') + '\n';
export const parseLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
export const contractOnly = (out: Record<string, unknown>[]) => out.filter((o) => ['move', 'flag', 'forfeit', 'state'].includes(o.type as string));

// A steady game on 3600+10: White and Black press alternately every 100 ms; each side uses
// 100 ms and gains 10 000 per move, so nobody ever flags.
export const GAME_HEADER = '{"type":"setup","timeControl":"3600+10"}\n{"t":0,"type":"start"}\n';
export const pressLine = (i: number): string => `{"t":${i * 100},"type":"press","side":"${i % 2 === 1 ? 'white' : 'black'}"}\n`;

/** One game of `totalLines` lines: setup, start, presses, end. */
export function oneLongGame(totalLines: number): Iterable<string> {
  return (function* () {
    yield GAME_HEADER;
    for (let i = 1; i <= totalLines - 3; i++) yield pressLine(i);
    yield `{"t":${(totalLines - 2) * 100},"type":"end"}\n`;
  })();
}

/** `totalLines / 100` games of 100 lines each: setup, start, 97 presses, end at 9 800. */
export function manyShortGames(totalLines: number): Iterable<string> {
  return (function* () {
    for (let g = 0; g < totalLines / 100; g++) {
      yield GAME_HEADER;
      for (let i = 1; i <= 97; i++) yield pressLine(i);
      yield '{"t":9800,"type":"end"}\n';
    }
  })();
}

export function writeLines(file: string, lines: Iterable<string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file);
    out.on('error', reject);
    out.on('finish', () => resolve());
    let chunk = '';
    for (const l of lines) {
      chunk += l;
      if (chunk.length > 1 << 20) {
        out.write(chunk);
        chunk = '';
      }
    }
    out.end(chunk);
  });
}

/** Runs `chessclock replay FILE` with stdout to a file; returns exit code, peak RSS and the last line. */
export async function replayFileMeasured(file: string, workDir: string): Promise<{ code: number | null; maxRssKb: number; last: Record<string, unknown> }> {
  const probe = join(workDir, `rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const outFile = `${probe}.out`;
  const code = await new Promise<number | null>((resolve, reject) => {
    const out = createWriteStream(outFile);
    out.on('open', (fd) => {
      // Output goes to a file so the parent's reading speed cannot inflate the child's memory.
      // --optimize-for-size: V8 collects before it grows the heap, so the peak follows what the
      // replay keeps, not when the collector happened to run (with the default heuristics the
      // peak of the same run varies by tens of MB on a loaded machine: a flaky measure).
      const child = spawn(process.execPath, ['--optimize-for-size', '--require', RSS_PROBE, BIN, 'replay', file], {
        cwd: root,
        env: { ...process.env, RSS_PROBE_OUT: probe },
        stdio: ['ignore', fd, 'inherit'],
      });
      child.on('error', reject);
      child.on('close', (c) => {
        out.close();
        resolve(c);
      });
    });
  });
  const lastLine = readFileSync(outFile, 'utf8').trimEnd().split('\n').pop() ?? '{}';
  return { code, maxRssKb: Number(readFileSync(probe, 'utf8')), last: JSON.parse(lastLine) as Record<string, unknown> };
}

/**
 * Starts `chessclock replay` on stdin, writes `first`, and reports whether any output
 * line arrives within `waitMs` while stdin is still open; then writes `rest`, closes stdin
 * and waits for the exit.
 */
export async function outputBeforeEnd(first: string, rest: string, waitMs: number): Promise<{ early: boolean; code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [BIN, 'replay'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.setEncoding('utf8');
  const firstOutput = new Promise<void>((resolve) => {
    child.stdout.on('data', (d: string) => {
      stdout += d;
      if (stdout.includes('\n')) resolve();
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stdin.write(first);
  const early = await Promise.race([firstOutput.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), waitMs))]);
  child.stdin.end(rest);
  const code = await exited;
  return { early, code, stdout };
}
