// The results waiting for an arbiter's confirmation, above the boards (docs/dashboard.md
// "Pending results"): each with its Confirm. The attention strip lists the same boards (kind
// `result`); so that a big hall's list does not push the boards off the first screen, the box is a
// <details> folded to one line when it holds more results than `pendingOpenUpTo` (3 on a phone,
// 12 on a wider screen: a team round's 8 boards stay open on the arbiter's PC), open below that (a
// Confirm one click away). The arbiter's own fold or unfold is kept until the list is short again.
import type { BoardView } from '../../../../app/ports.ts';
import { button, el, setText } from './dom.ts';
import { resultText } from './words.ts';

/** At most this many pending results, the box is open; more, folded to its summary line. */
export const PENDING_OPEN_UP_TO = { phone: 3, wide: 12 } as const;

/** The page's threshold: a phone (700 px or narrower, the page's phone layout) or a wider screen. */
export function pendingOpenUpTo(win: Window): number {
  return win.matchMedia('(max-width: 700px)').matches ? PENDING_OPEN_UP_TO.phone : PENDING_OPEN_UP_TO.wide;
}

export class PendingResults {
  private key = '';
  /** The arbiter's own choice (a click on the summary) while the list is long; null: the page decides. */
  private chosen: boolean | null = null;
  /** The page is setting `open` itself: the toggle event that follows is not the arbiter's. */
  private setting = false;

  constructor(
    private readonly section: HTMLDetailsElement,
    private readonly label: (b: BoardView) => string,
    private readonly confirm: (boardId: string, target: HTMLButtonElement) => void,
  ) {
    section.addEventListener('toggle', () => {
      if (this.setting) this.setting = false;
      else this.chosen = section.open;
    });
  }

  /** Shows `pending` (in hall order): hidden when empty, its count in the summary, folded when long. */
  render(pending: readonly BoardView[]): void {
    const key = JSON.stringify(pending.map((b) => [b.id, b.result, this.label(b)]));
    if (key === this.key) return;
    this.key = key;
    this.section.hidden = pending.length === 0;
    const upTo = pendingOpenUpTo(this.section.ownerDocument.defaultView!);
    if (pending.length <= upTo) this.chosen = null;
    const open = this.chosen ?? pending.length <= upTo;
    if (this.section.open !== open) {
      this.setting = true;
      this.section.open = open;
    }
    setText(this.section.querySelector('.pending-count'), `${pending.length} to confirm${pending.length > upTo ? ' · each also in the attention strip' : ''}`);
    this.section.querySelector('ul')!.replaceChildren(
      ...pending.map((b) => {
        const li = el('li');
        li.dataset.boardId = b.id;
        const players = `${b.white ? b.white.name : '—'} – ${b.black ? b.black.name : '—'}`;
        const confirm = button('Confirm', { action: 'confirm' }, 'confirm this result');
        confirm.addEventListener('click', () => this.confirm(b.id, confirm));
        li.append(el('span', 'what', `${this.label(b)}: ${players}`), el('b', 'pending-value', resultText(b.result!)), confirm);
        return li;
      }),
    );
  }
}
