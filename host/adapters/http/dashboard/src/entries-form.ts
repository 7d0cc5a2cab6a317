// An event's entries (arbiters only; docs/api.md "Entries", docs/dashboard.md "Next round"): a late
// entrant, a withdrawal, a requested bye or a round's start time, entered into the running host
// from a small form in the next-round section. The host checks each (refused once its round is
// proposed or opened) and journals it with the arbiter; the form shows the host's answer.
import type { EntriesView } from '../../../../app/ports.ts';
import { api } from './api.ts';

type Kind = 'late-entry' | 'withdrawal' | 'bye' | 'start-time';

/** The fields each kind of entry uses (the others are hidden). */
const FIELDS: Record<Kind, readonly string[]> = {
  'late-entry': ['name', 'rating', 'federation', 'round'],
  withdrawal: ['player', 'round'],
  bye: ['player', 'round', 'points'],
  'start-time': ['round', 'start'],
};

/** What the form sends: the API path (after /api/events/EVENT/) and its body. */
function request(kind: Kind, v: (name: string) => string): { path: string; body: Record<string, unknown> } {
  const num = (name: string) => (v(name) === '' ? undefined : Number(v(name)));
  switch (kind) {
    case 'late-entry': {
      const player: Record<string, unknown> = { name: v('name').trim() };
      if (v('rating') !== '') player.rating = num('rating');
      if (v('federation') !== '') player.federation = v('federation').trim().toUpperCase();
      return { path: 'entries/late-entry', body: { player, fromRound: num('round') } };
    }
    case 'withdrawal':
      return { path: 'entries/withdrawal', body: { player: num('player'), fromRound: num('round') } };
    case 'bye':
      return { path: 'entries/bye', body: { player: num('player'), round: num('round'), points: num('points') } };
    case 'start-time':
      // The browser's local time, sent with its offset (as UTC): the host refuses a time without one.
      return { path: `rounds/${v('round')}/start-time`, body: { start: v('start') === '' ? '' : new Date(v('start')).toISOString() } };
  }
}

/** The host's answer in words: the entry it journaled, with the arbiter. */
function answer(kind: Kind, e: EntriesView): string {
  if (kind === 'late-entry') {
    const l = e.lateEntries.at(-1)!;
    return `${l.player.name} entered as player ${l.player.rank} from round ${l.fromRound} by ${l.by}`;
  }
  if (kind === 'withdrawal') {
    const w = e.withdrawals.at(-1)!;
    return `${w.player.name} withdrawn from round ${w.fromRound} on by ${w.by}`;
  }
  if (kind === 'bye') {
    const b = e.byes.at(-1)!;
    return `${b.player.name}: requested bye in round ${b.round}, ${b.points} point(s) (${b.kind}), entered by ${b.by}`;
  }
  const s = e.roundStarts.at(-1)!;
  return `round ${s.round} starts ${new Date(s.startUtcMs).toLocaleString()} (set by ${s.by})`;
}

/** Wires the entries form: the fields of the chosen kind, and each entry posted with the host's answer shown. */
export function mountEntriesForm(form: HTMLFormElement): void {
  const kindOf = () => (form.elements.namedItem('kind') as HTMLSelectElement).value as Kind;
  const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement).value;
  const show = () => {
    for (const label of Array.from(form.querySelectorAll<HTMLElement>('[data-field]'))) label.hidden = !FIELDS[kindOf()].includes(label.dataset.field!);
  };
  (form.elements.namedItem('kind') as HTMLSelectElement).addEventListener('change', show);
  show();
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const message = form.querySelector<HTMLElement>('.message')!;
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    const kind = kindOf();
    const event = value('entry-event');
    const { path, body } = request(kind, value);
    submit.disabled = true;
    try {
      const data = await api<{ entries: EntriesView }>('POST', `/api/events/${encodeURIComponent(event)}/${path}`, body);
      message.dataset.kind = 'ok';
      message.textContent = answer(kind, data.entries);
    } catch (err) {
      message.dataset.kind = 'error';
      message.textContent = (err as Error).message;
    } finally {
      submit.disabled = false;
    }
  });
}
