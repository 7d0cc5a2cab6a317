// Where the moves of a broadcast come from (docs/broadcast.md "Moves sources"), followed live:
//  - a PGN file, or a folder of PGN files, that a board system rewrites (DGT LiveChess writes a
//    round's games to a folder): watched with fs.watch, read again after a quiet moment (the
//    debounce), so a burst of writes is read once;
//  - a URL serving PGN, polled with `If-None-Match` (its ETag) and `If-Modified-Since` (its
//    Last-Modified), so an unchanged file costs a 304 and no parse.
// A new text is handed on only when it is PGN (host/app/pgn-movetext.ts reads it) and differs from
// the last one. A board system rewrites its file by truncating it and writing it again: a read in
// between finds an empty or half-written file, which is not the source's final word. It is said
// (`incomplete`) and read again at the next change; the text handed on before stays the moves.
// Which game is which board is the broadcast's (live-pgn.ts: unmatched games are returned,
// never guessed).

import { EventEmitter } from 'node:events';
import { type FSWatcher, watch } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseMovetextGames, PgnSyntaxError } from '../../app/pgn-movetext.ts';

export type MovesSourceSpec = { kind: 'file'; path: string } | { kind: 'folder'; path: string } | { kind: 'url'; url: string };

/** A moves text that is PGN, as the source holds it now. */
export interface MovesText {
  text: string;
  /** How many games it holds. */
  games: number;
  /** Where each piece of the text came from: a folder's files, in order, each with its first line in `text`. */
  parts: readonly MovesPart[];
}

export interface MovesPart {
  /** The file's path, or the URL. */
  name: string;
  /** The line of `text` where it begins (1-based). */
  line: number;
}

/** Where a line of a moves text is in its own file: `round-2.pgn:12`. */
export function placeOf(moves: Pick<MovesText, 'parts'>, line: number): string {
  const part = [...moves.parts].reverse().find((p) => p.line <= line);
  return part ? `${part.name}:${line - part.line + 1}` : `line ${line}`;
}

export interface MovesSourceEvents {
  /** A new moves text. */
  moves: [MovesText];
  /** The source is being rewritten (empty, or not PGN yet): read again at its next change. */
  incomplete: [string];
  /** The source cannot be read (a missing folder, an HTTP error): tried again at the next change or poll. */
  problem: [string];
}

export interface MovesSourceOptions {
  /** A file or folder: the quiet time after a change before it is read. Default 250 ms. */
  debounceMs?: number;
  /** A URL: the time between polls. Default 2000 ms. */
  pollMs?: number;
}

/** A moves source followed live: `start()`, then its events, until `stop()`. */
export abstract class MovesSource extends EventEmitter<MovesSourceEvents> {
  private last: string | null = null;

  abstract start(): void;
  abstract stop(): void;

  /** The last moves text handed on, or null before the first. */
  get current(): string | null {
    return this.last;
  }

  /** A text read from the source: handed on when it is PGN and new; a half-written one said, and kept waiting. */
  protected offer(text: string, where: string, parts: readonly MovesPart[] = [{ name: where, line: 1 }]): void {
    if (text.trim() === '') {
      this.emit('incomplete', `${where} is empty (being rewritten?): read again at its next change`);
      return;
    }
    if (text === this.last) return;
    let games: number;
    try {
      games = parseMovetextGames(text).length;
    } catch (err) {
      if (!(err instanceof PgnSyntaxError)) throw err;
      this.emit('incomplete', `${where}: ${err.message} (being rewritten?): read again at its next change`);
      return;
    }
    this.last = text;
    this.emit('moves', { text, games, parts });
  }
}

/** A file, or a folder's `*.pgn` files (joined in name order), watched and read after each burst of changes. */
export class WatchedMovesSource extends MovesSource {
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private reading: Promise<void> | null = null;
  private again = false;
  private readonly debounceMs: number;

  constructor(
    private readonly spec: { kind: 'file' | 'folder'; path: string },
    opts: MovesSourceOptions = {},
  ) {
    super();
    this.debounceMs = opts.debounceMs ?? 250;
  }

  start(): void {
    if (this.watcher) return;
    // A file is watched through its folder: a writer that replaces the file (a new inode) is still seen.
    const folder = this.spec.kind === 'folder' ? this.spec.path : dirname(this.spec.path);
    const name = this.spec.kind === 'file' ? basename(this.spec.path) : null;
    this.watcher = watch(folder, (_type, file) => {
      if (file !== null && (name !== null ? file !== name : !/\.pgn$/i.test(file))) return;
      this.schedule();
    });
    this.watcher.on('error', (err) => this.emit('problem', `${folder}: ${err.message}`));
    this.schedule();
  }

  stop(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.read();
    }, this.debounceMs);
  }

  /** One read at a time; a change during a read reads again after it. */
  private read(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.readOnce().finally(() => {
      this.reading = null;
      if (this.again && this.watcher) {
        this.again = false;
        this.read();
      }
    });
  }

  private async readOnce(): Promise<void> {
    let read: { text: string; parts?: MovesPart[] };
    try {
      read = this.spec.kind === 'file' ? { text: await readFile(this.spec.path, 'utf8') } : await readFolder(this.spec.path);
    } catch (err) {
      // A file between its removal and its new version is a rewrite too.
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && this.spec.kind === 'file')
        this.emit('incomplete', `${this.spec.path} is missing (being rewritten?): read again at its next change`);
      else this.emit('problem', `${this.spec.path}: ${(err as Error).message}`);
      return;
    }
    if (this.watcher) this.offer(read.text, this.spec.path, read.parts);
  }
}

async function readFolder(folder: string): Promise<{ text: string; parts: MovesPart[] }> {
  const names = (await readdir(folder)).filter((n) => /\.pgn$/i.test(n)).sort();
  const texts = await Promise.all(names.map(async (n) => ({ name: join(folder, n), text: (await readFile(join(folder, n), 'utf8')).trimEnd() })));
  // One PGN text: each file's games, a blank line between files (PGN standard §8).
  const parts: MovesPart[] = [];
  let line = 1;
  for (const t of texts.filter((x) => x.text.trim() !== '')) {
    parts.push({ name: t.name, line });
    line += t.text.split('\n').length + 1;
  }
  return {
    text: texts
      .map((t) => t.text)
      .filter((t) => t.trim() !== '')
      .join('\n\n'),
    parts,
  };
}

/** A URL polled with its ETag and Last-Modified; a 304 is the text unchanged. */
export class PolledMovesSource extends MovesSource {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private etag: string | null = null;
  private lastModified: string | null = null;
  private readonly pollMs: number;

  constructor(
    private readonly url: string,
    opts: MovesSourceOptions = {},
  ) {
    super();
    this.pollMs = opts.pollMs ?? 2000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.poll();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async poll(): Promise<void> {
    try {
      await this.fetchOnce();
    } catch (err) {
      this.emit('problem', `${this.url}: ${(err as Error).message}`);
    }
    if (this.running) this.timer = setTimeout(() => void this.poll(), this.pollMs);
  }

  private async fetchOnce(): Promise<void> {
    const headers: Record<string, string> = { accept: 'application/x-chess-pgn, text/plain' };
    if (this.etag) headers['if-none-match'] = this.etag;
    if (this.lastModified) headers['if-modified-since'] = this.lastModified;
    const res = await fetch(this.url, { headers, signal: AbortSignal.timeout(Math.max(5000, this.pollMs)) });
    if (res.status === 304) return;
    if (!res.ok) {
      await res.body?.cancel();
      this.emit('problem', `${this.url}: HTTP ${res.status} ${res.statusText}`);
      return;
    }
    const text = await res.text();
    if (!this.running) return;
    this.etag = res.headers.get('etag');
    this.lastModified = res.headers.get('last-modified');
    this.offer(text, this.url);
  }
}

/** The source a spec names. */
export function openMovesSource(spec: MovesSourceSpec, opts: MovesSourceOptions = {}): MovesSource {
  return spec.kind === 'url' ? new PolledMovesSource(spec.url, opts) : new WatchedMovesSource(spec, opts);
}

/**
 * A source as the command line and the tournament file write it: `http://…` or `https://…` a URL,
 * a path ending in `/` or naming a folder a folder (decided by the caller's `isFolder`), else a file.
 */
export function parseMovesSource(text: string, isFolder: (path: string) => boolean): MovesSourceSpec {
  const value = text.trim();
  if (value === '') throw new Error('moves source: empty; give a PGN file, a folder of PGN files or an http(s) URL');
  if (/^https?:\/\//i.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new Error(`moves source "${value}": not a URL`);
    }
    return { kind: 'url', url: value };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) throw new Error(`moves source "${value}": only http and https URLs are polled`);
  return value.endsWith('/') || isFolder(value) ? { kind: 'folder', path: value } : { kind: 'file', path: value };
}
