// The next round (arbiters only; docs/api.md "The next round"): the pairings a Swiss event's
// engine proposed, or a TRF or a pairs list an arbiter loaded, wait here for an arbiter: Approve opens the
// round, Reject sets them aside (with a reason), Re-run runs the engine again. Asked for while
// signed in: on sign-in, every few seconds (the engine runs on its own after a round's last
// confirmation) and after every action here.
import type { RoundProposalView, RoundWaitingView } from '../../../../app/ports.ts';
import { api, currentToken } from './api.ts';
import { button, el } from './dom.ts';

/** What the page gives the box beyond its events: where the rounds that wait go, and the rounds to print. */
export interface NextRoundHooks {
  /** Each answer of GET /api/rounds/proposed (empty when signed out): the attention strip's round items. */
  onRounds?(proposals: readonly RoundProposalView[], waiting: readonly RoundWaitingView[]): void;
  /** The events' rounds in play (Swiss, round-robin and team events): the box links their pages for print. */
  printable?(): readonly { key: string; name: string; round: number }[];
}

export class NextRound {
  private key = '';

  /** `eventKeys`: the events the box offers (never a knockout: the director pairs its matches from the file). */
  constructor(
    private readonly section: HTMLElement,
    private readonly eventKeys: () => string[],
    private readonly eventFilter: () => string,
    private readonly hooks: NextRoundHooks = {},
  ) {
    const form = section.querySelector<HTMLFormElement>('.load-trf')!;
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const message = form.querySelector<HTMLElement>('.message')!;
      const fields = form.elements as unknown as { file: HTMLInputElement; pairs: HTMLInputElement; trf: HTMLTextAreaElement; event: HTMLSelectElement };
      const file = fields.file.files?.[0];
      const trf = file ? await file.text() : fields.trf.value;
      // A pairs list (bbpPairings/JaVaFo -p) names neither round nor players: the TRF it was paired from does.
      const pairsFile = fields.pairs.files?.[0];
      const pairs = pairsFile ? await pairsFile.text() : undefined;
      const event = fields.event.value;
      if (!trf.trim() || !event) {
        message.dataset.kind = 'error';
        message.textContent = pairs
          ? 'a pairs list needs the TRF it was paired from: choose the event and that TRF file (or paste its text)'
          : 'choose the event and a TRF file (or paste its text)';
        return;
      }
      const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
      await this.action(
        submit,
        message,
        'POST',
        `/api/events/${encodeURIComponent(event)}/rounds`,
        pairs === undefined ? { trf } : { trf, pairs },
        (d) => `round ${(d.proposal as RoundProposalView).round} loaded by ${d.arbiter}: check the pairings, then approve`,
      );
      if (message.dataset.kind === 'ok') form.reset();
    });
    setInterval(() => void this.refresh(), 5_000);
  }

  hide(): void {
    this.section.hidden = true;
    this.hooks.onRounds?.([], []);
  }

  async refresh(): Promise<void> {
    if (!currentToken()) return;
    let data: { proposals: RoundProposalView[]; waiting?: RoundWaitingView[] };
    try {
      data = await api('GET', '/api/rounds/proposed');
    } catch {
      return; // signed out, or a host without a director (501): the section stays as it was
    }
    this.hooks.onRounds?.(data.proposals, data.waiting ?? []);
    this.render(data.proposals, data.waiting ?? []);
  }

  private render(list: readonly RoundProposalView[], waiting: readonly RoundWaitingView[]): void {
    // The events the page shows, and those with no board yet whose round 1 waits for pairings.
    const events = [...new Set([...this.eventKeys(), ...waiting.map((w) => w.event)])];
    // Nothing to pair here (a hall of knockouts): no box.
    this.section.hidden = events.length === 0 && list.length === 0;
    this.renderPrintLinks();
    // The event choices of the TRF form and the entries form (src/entries-form.ts).
    for (const select of Array.from(this.section.querySelectorAll<HTMLSelectElement>('select[name="event"], select[name="entry-event"]'))) {
      if (JSON.stringify(Array.from(select.options).map((o) => o.value)) !== JSON.stringify(events)) {
        select.replaceChildren(...events.map((key) => Object.assign(el('option', '', key), { value: key })));
      }
    }
    const filter = this.eventFilter();
    const shown = list.filter((p) => filter === '' || p.event === filter);
    const key = JSON.stringify(shown);
    if (key === this.key) return;
    this.key = key;
    this.section.querySelector('.proposals')!.replaceChildren(...shown.map((p) => this.card(p)));
  }

  /** Each event's round in play, as pages for print: its pairings list and its table cards (docs/exports.md "Print before the round"). */
  private renderPrintLinks(): void {
    const box = this.section.querySelector('.print-links');
    if (!box || !this.hooks.printable) return;
    const filter = this.eventFilter();
    const rounds = this.hooks.printable().filter((e) => filter === '' || e.key === filter);
    const key = JSON.stringify(rounds);
    if ((box as HTMLElement).dataset.key === key) return;
    (box as HTMLElement).dataset.key = key;
    box.replaceChildren(
      ...rounds.map((e) => {
        const li = el('li', '', `${e.name} · round ${e.round}: `);
        const base = `/events/${encodeURIComponent(e.key)}`;
        const pairings = Object.assign(el('a', 'print-pairings', 'pairings'), { href: `${base}/pairings.html?round=${e.round}`, target: '_blank' });
        const cards = Object.assign(el('a', 'print-cards', 'table cards'), { href: `${base}/cards.html?round=${e.round}`, target: '_blank' });
        li.append(pairings, ' · ', cards);
        return li;
      }),
    );
  }

  private card(p: RoundProposalView): HTMLElement {
    const card = el('div', 'proposal');
    card.dataset.event = p.event;
    card.dataset.status = p.status;
    const from = p.source === 'engine' ? 'the pairing engine' : `${p.source === 'pairs' ? 'a pairs list' : 'a TRF'} loaded by ${p.by}`;
    const heading = {
      running: `${p.event} round ${p.round}: the pairing engine is pairing…`,
      proposed: `${p.event} round ${p.round}: proposed by ${from}, waiting for approval`,
      failed: `${p.event} round ${p.round}: the pairing engine gave no pairings`,
      rejected: `${p.event} round ${p.round}: pairings from ${from} rejected by ${p.rejected?.by}${p.rejected?.reason ? ` (${p.rejected.reason})` : ''}`,
    }[p.status];
    card.append(el('h3', '', heading));
    if (p.reason) {
      const why = el('p', 'message', p.reason);
      why.dataset.kind = 'error';
      card.append(why);
    }
    if (p.initialColour) {
      // Round 1 (FIDE C.04.3): the top-ranked player's colour on board 1 is drawn by lot; say who drew it.
      const how = p.initialColourDrawnBy === 'arbiter' ? 'drawn in the hall and entered by the arbiter' : "drawn by the host's cryptographic lot";
      card.append(el('p', 'lot', `Colours by lot: the top-ranked player has ${p.initialColour} on board 1 (${how}).`));
    }
    if (p.engine && p.status === 'failed') {
      card.append(el('p', '', `${p.engine.command.join(' ')} — exit code ${p.engine.exitCode ?? '—'}${p.engine.signal ? `, ${p.engine.signal}` : ''}`));
      if (p.engine.stderr) card.append(el('pre', '', p.engine.stderr));
    }
    if (p.boards.length) {
      const table = el('table');
      const head = el('tr');
      head.append(el('th', '', 'Board'), el('th', '', 'White'), el('th', '', 'Black'));
      table.append(head);
      for (const b of p.boards) {
        const tr = el('tr');
        tr.append(el('td', '', String(b.board)), el('td', '', `${b.white.name} (${b.white.rank})`), el('td', '', `${b.black.name} (${b.black.rank})`));
        table.append(tr);
      }
      const scroller = el('div', 'table-scroll');
      scroller.append(table);
      card.append(scroller);
    }
    for (const bye of p.byes) card.append(el('p', '', `bye (${bye.kind}): ${bye.player ? `${bye.player.name} (${bye.player.rank})` : bye.team?.name}`));
    const message = Object.assign(el('span', 'message'), { role: 'status' });
    const base = `/api/events/${encodeURIComponent(p.event)}/rounds`;
    if (p.status === 'proposed') {
      const approve = button(`Approve and open round ${p.round}`, { action: 'approve-round' }, 'open the round with these pairings');
      approve.addEventListener('click', () =>
        this.action(
          approve,
          message,
          'POST',
          `${base}/${p.round}/approve`,
          undefined,
          (d) => `round ${d.round} opened by ${d.arbiter}: ${(d.boards as unknown[]).length} boards`,
        ),
      );
      const reason = Object.assign(el('input'), { placeholder: 'reason for rejecting', maxLength: 500 });
      reason.setAttribute('aria-label', 'reason for rejecting');
      const reject = button('Reject', { action: 'reject-round' }, 'set these pairings aside');
      reject.addEventListener('click', () =>
        this.action(
          reject,
          message,
          'POST',
          `${base}/${p.round}/reject`,
          reason.value.trim() ? { reason: reason.value.trim() } : {},
          (d) => `rejected by ${d.arbiter}`,
        ),
      );
      card.append(approve, reason, reject);
    }
    if (p.canRunEngine && p.status !== 'running') {
      const rerun = button('Re-run the engine', { action: 'rerun-engine' }, 'run the pairing engine again (pending pairings are rejected first)');
      rerun.addEventListener('click', () =>
        this.action(rerun, message, 'POST', `${base}/pair`, undefined, (d) => `new pairings proposed (run by ${d.arbiter})`),
      );
      card.append(rerun);
    }
    card.append(message);
    return card;
  }

  /** One next-round action: the host's answer in the card's message, then the list again. */
  private async action(
    target: HTMLButtonElement,
    message: HTMLElement,
    method: string,
    path: string,
    body: unknown,
    done: (d: Record<string, unknown>) => string,
  ): Promise<void> {
    target.disabled = true;
    try {
      const data = await api(method, path, body);
      message.dataset.kind = 'ok';
      message.textContent = done(data);
    } catch (err) {
      message.dataset.kind = 'error';
      message.textContent = (err as Error).message;
    } finally {
      target.disabled = false;
      this.key = '';
      await this.refresh();
    }
  }
}
