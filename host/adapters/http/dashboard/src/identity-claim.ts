// Two lines claim one clock id (docs/dashboard.md "Clock identity"): the board the id serves says
// which lines, and a signed-in arbiter keeps the clock online or takes the newcomer as its
// replacement (POST /api/clocks/:clockId/identity, docs/api.md "Clock identity").
import type { BoardView } from '../../../../app/ports.ts';
import { api } from './api.ts';
import { button, el, setText } from './dom.ts';

type Keep = 'online' | 'newcomer';

/** What the panel says of the claim on the board's clock, or '' when there is none. */
export function identityClaimText(b: BoardView, nowUtcMs: number): string {
  const c = b.identityClaim;
  if (!c) return '';
  const since = Math.max(0, Math.round((nowUtcMs - c.sinceUtcMs) / 1000));
  return (
    `Two clocks say they are ${c.clockId}: the one online on ${c.onlineLine} (boot ${c.onlineBoot}) plays this board; ` +
    `another greeted on ${c.line} (boot ${c.boot}) ${since} s ago and is refused. Keep the clock online, or take the other as its replacement ` +
    '(it is held and restored from the journal).'
  );
}

/** The request for the arbiter's choice. */
export function identityRequest(b: BoardView, keep: Keep): [string, string, unknown] {
  const c = b.identityClaim!;
  return ['POST', `/api/clocks/${encodeURIComponent(c.clockId)}/identity`, { line: c.line, keep }];
}

/** The panel's box for a claim: the text, and the two choices (an arbiter's: body.arbiter shows them). */
export class IdentityClaimBox {
  readonly root = el('div', 'identity-claim');
  private readonly text = Object.assign(el('p', ''), { role: 'alert' });
  private board: BoardView | null = null;

  constructor(say: (b: BoardView, kind: 'ok' | 'error', text: string) => void) {
    const keep = button('Keep the clock online', { identity: 'online' }, 'the other line stays refused');
    const take = button(
      'Take the other as replacement',
      { identity: 'newcomer' },
      "the online clock's line is dropped; the other is restored from the journal",
    );
    const row = el('div', 'row arbiter-only');
    row.append(keep, take);
    this.root.append(this.text, row);
    this.root.hidden = true;
    row.addEventListener('click', async (ev) => {
      const target = (ev.target as HTMLElement).closest('button');
      const b = this.board;
      if (!target || !b?.identityClaim) return;
      const choice = target.dataset.identity as Keep;
      target.disabled = true;
      try {
        const data = await api<{ arbiter: string }>(...identityRequest(b, choice));
        say(b, 'ok', `${target.textContent}: done by ${data.arbiter}`);
      } catch (err) {
        say(b, 'error', (err as Error).message);
      } finally {
        target.disabled = false;
      }
    });
  }

  render(b: BoardView, nowUtcMs: number): void {
    this.board = b;
    const text = identityClaimText(b, nowUtcMs);
    setText(this.text, text);
    this.root.hidden = text === '';
  }
}
