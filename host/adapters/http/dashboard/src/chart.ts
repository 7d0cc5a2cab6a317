// The time charts (docs/dashboard.md "Time chart"): the full one in the board's side panel, the
// small one on each /public card, each an <img> of GET /api/boards/:id/chart.svg. An image is
// loaded again only when the board's move count or result changed (its key below), and at most
// once every CHART_MIN_INTERVAL_MS per image; the server's ETag answers an unchanged chart with 304.
import type { BoardView } from '../../../../app/ports.ts';

export const CHART_MIN_INTERVAL_MS = 5_000;

/**
 * What the chart depends on, as far as the board shows it: the game (round, game number), the
 * moves played and the result. Null: nothing to draw yet (no clock event: the host has no game
 * to draw, and would answer 404).
 */
export function chartKey(b: BoardView): string | null {
  if (!b.live) return null;
  return `${b.round}.${b.game?.no ?? 1}.${b.live.moves.white + b.live.moves.black}.${b.result ?? ''}`;
}

export function chartUrl(boardId: string, size: 'small' | 'full', key: string): string {
  // The key in the URL makes a changed game a new image; the same key revalidates by its ETag.
  return `/api/boards/${encodeURIComponent(boardId)}/chart.svg?size=${size}&v=${encodeURIComponent(key)}`;
}

/** Keeps one <img> showing a board's chart, reloading it as chartKey allows. */
export class ChartImage {
  private key: string | null = null;
  private boardId = '';
  private loadedAt = -Infinity;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private wanted: BoardView | null = null;

  constructor(
    readonly img: HTMLImageElement,
    private readonly size: 'small' | 'full',
    private readonly describe: (b: BoardView) => string,
  ) {
    img.decoding = 'async';
  }

  /** Shows `b`'s chart (a different board: at once; the same board: when its key changed, throttled). */
  show(b: BoardView): void {
    const key = chartKey(b);
    const sameBoard = b.id === this.boardId;
    if (sameBoard && key === this.key) return;
    this.wanted = b;
    if (key === null) {
      this.clear();
      this.boardId = b.id;
      return;
    }
    const wait = sameBoard ? this.loadedAt + CHART_MIN_INTERVAL_MS - Date.now() : 0;
    if (wait <= 0) this.load();
    else if (this.timer === null) this.timer = setTimeout(() => this.load(), wait);
  }

  private load(): void {
    this.timer = null;
    const b = this.wanted;
    if (!b) return;
    const key = chartKey(b);
    if (key === null) return;
    this.boardId = b.id;
    this.key = key;
    this.loadedAt = Date.now();
    this.img.alt = this.describe(b);
    this.img.src = chartUrl(b.id, this.size, key);
    this.img.hidden = false;
  }

  clear(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.key = null;
    this.img.hidden = true;
    this.img.removeAttribute('src');
  }
}
