// The board's side panel on the arbiter page: opened on demand (a click or Enter on the board's
// line, or openBoard from the attention strip), it holds what the line has no room for: the
// board's notes, the full time chart, and, for a signed-in arbiter, the controls. A control the
// board's status refuses is disabled, and the reason is written in the panel (actions.ts
// refusalOf: the rule book's words, the host's own). Careful actions ask first (confirmations.ts,
// confirm-dialog.ts). docs/dashboard.md "The hall view" and "The arbiter's corrections".
import type { BoardView } from '../../../../app/ports.ts';
import { formatClockTime } from '../../../../../rules/display-format.ts';
import { GAME_RESULTS, other, RESULT_MEANING, SIDE_NAME, SIDES, type GameResult, type Side } from '../../../../../rules/vocabulary.ts';
import { formatTimeControl, INCREMENT_TIMINGS, type IncrementTiming } from '../../../../../protocol/time-control.ts';
import {
  answeredAction,
  gameOf,
  messageFor,
  refusalOf,
  requestOf,
  requestsOf,
  resultButtonText,
  suggestedResult,
  type Action,
  type ActionKind,
  type ActionMessage,
  type ControlCorrection,
} from './actions.ts';
import { api } from './api.ts';
import {
  broadcastLine,
  controlLine,
  flagLine,
  illegalMoveLine,
  infoLine,
  label,
  linkHealthLine,
  matchLine,
  remainingNow,
  restoreLine,
  statusOf,
} from './board-text.ts';
import { ChartImage } from './chart.ts';
import { IdentityClaimBox } from './identity-claim.ts';
import { askConfirmation } from './confirm-dialog.ts';
import { confirmationOf, correctedControl } from './confirmations.ts';
import { button, el, setText } from './dom.ts';

/** The corrected control form's default times (FIDE Laws 6.7.1), seconds: the clock's own setup menu offers the same. */
const DEFAULT_TIME_CHOICES_S = [0, 300, 600, 900, 1800, 3600];

export class Panel {
  private boardId: string | null = null;
  /** Each board's last action message, kept for its game: a new game or round clears it. */
  private readonly messages = new Map<string, ActionMessage>();
  /** The result the entry was last preselected with (FIDE Laws 7.5.5), per board and game: preselected once, never over the arbiter's choice. */
  private suggested: string | null = null;
  private readonly chart: ChartImage;
  private readonly body: HTMLElement;
  private readonly identity = new IdentityClaimBox((b, kind, text) => this.say(b, kind, text));

  constructor(
    private readonly root: HTMLElement,
    private readonly dialog: HTMLDialogElement,
    private readonly board: (id: string) => BoardView | undefined,
    private readonly now: () => number,
    /** A board the API answered with (the store takes it; the feed's copy then changes nothing). */
    private readonly answered: (b: BoardView) => void,
    private readonly closed: (boardId: string) => void,
  ) {
    root.hidden = true;
    const head = el('header', 'panel-head');
    const title = el('h2', 'panel-title');
    title.id = 'panel-title';
    const close = button('Close', { action: 'close-panel' }, 'close the panel (Escape)');
    close.setAttribute('aria-label', 'close the board panel');
    close.addEventListener('click', () => this.close());
    head.append(title, close);
    this.body = el('div', 'panel-body');
    const times = el('div', 'panel-times');
    for (const side of SIDES) {
      const t = el('div', `panel-side ${side}`);
      t.append(el('span', 'panel-name'), el('span', 'panel-time'));
      times.append(t);
    }
    const chartFigure = el('figure', 'chart');
    const img = el('img', 'chart-full');
    img.width = 720;
    chartFigure.append(img);
    this.chart = new ChartImage(img, 'full', (b) => `time chart of ${label(b)}: both sides' remaining time per move`);
    const notes = el('div', 'panel-notes');
    notes.append(
      el('p', 'panel-status'),
      el('p', 'panel-control'),
      // FIDE Laws 7.5.5: a second illegal move; an alert, announced when it appears.
      Object.assign(el('p', 'panel-illegal'), { role: 'alert' }),
      el('p', 'panel-match'),
      el('p', 'panel-flags'),
      Object.assign(el('p', 'restore'), { role: 'note' }),
      Object.assign(el('p', 'panel-broadcast'), { role: 'note' }),
      el('p', 'link-health'),
      this.identity.root,
    );
    const refusals = el('ul', 'refusals');
    refusals.setAttribute('aria-label', 'controls not available now, and why');
    const message = Object.assign(el('p', 'message'), { role: 'status' });
    this.body.append(times, notes, this.controls(), refusals, message, chartFigure);
    root.append(head, this.body);
    root.setAttribute('aria-labelledby', 'panel-title');
    document.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape' && this.boardId !== null && !this.dialog.open) this.close();
    });
  }

  get openId(): string | null {
    return this.boardId;
  }

  open(id: string): void {
    const b = this.board(id);
    if (!b) return;
    if (this.boardId !== id) this.clearInputs();
    this.boardId = id;
    this.root.hidden = false;
    this.root.dataset.board = id;
    this.render(b);
    // The keyboard goes with the eyes: into the panel (Escape closes it and returns to the line).
    this.root.focus({ preventScroll: true });
  }

  close(): void {
    const id = this.boardId;
    this.boardId = null;
    this.root.hidden = true;
    delete this.root.dataset.board;
    this.chart.clear();
    if (id) this.closed(id);
  }

  /** What was typed or chosen for one board is not sent to the next one opened. */
  private clearInputs(): void {
    for (const input of Array.from(this.root.querySelectorAll<HTMLInputElement>('.controls input'))) input.value = '';
    for (const select of Array.from(this.root.querySelectorAll<HTMLSelectElement>('.controls select'))) select.value = '';
    this.suggested = null;
  }

  /** The arbiter's controls (shown to a signed-in arbiter only: body.arbiter). */
  private controls(): HTMLElement {
    const box = el('div', 'controls');
    const clock = el('div', 'row');
    clock.append(
      button('Start', { action: 'start' }, "start the game on this board's clock"),
      button('Pause', { action: 'pause' }),
      button('Resume', { action: 'resume' }),
    );
    const powers = el('div', 'row powers');
    powers.append(
      button(
        'Take back move',
        { action: 'takeback' },
        'annul the last completed move (FIDE Laws 7.5.1 with 6.10.2), rewinding or keeping the clock times (7.1); the clock must be paused or flagged',
      ),
      button('Reinstate', { action: 'reinstate' }, 'overrule the forfeit (FIDE Laws 6.7.1, "unless the arbiter decides otherwise")'),
      button('+5 s increment', { action: 'increment', ms: '5000' }, 'quickplay finish: 5 s for both players after every later move (FIDE Guidelines III.4)'),
      button('+5 s delay', { action: 'delay', ms: '5000' }, 'quickplay finish: a delay of 5 s for both players on every later turn (FIDE Guidelines III.4)'),
    );
    // FIDE Laws 6.10.2: a replacement clock, or a clock running for the wrong side.
    const turn = el('div', 'row turn');
    turn.append(
      ...SIDES.map((side) =>
        button(
          `${SIDE_NAME[side]} on move`,
          { action: 'set-turn', to: side },
          `set ${SIDE_NAME[side]} on move (FIDE Laws 6.10.2): no time moves, no move is counted; the clock must be ready or paused`,
        ),
      ),
    );
    box.append(clock, powers, turn);
    for (const side of SIDES) box.append(Panel.sideGroup(side));
    box.append(Panel.controlForm(), Panel.resultRow());
    box.addEventListener('click', (ev) => {
      const target = (ev.target as Element).closest<HTMLButtonElement>('button[data-action]');
      if (target && this.boardId) void this.command(this.boardId, target);
    });
    return box;
  }

  /** One side's controls: arrival, time, penalty, move counter. */
  private static sideGroup(side: Side): HTMLElement {
    const group = el('fieldset', 'row group');
    group.dataset.side = side;
    const legend = el('legend', '', SIDE_NAME[side]);
    const seconds = el('input', 'seconds');
    Object.assign(seconds, { type: 'number', step: '1', placeholder: '± s', inputMode: 'numeric' });
    seconds.setAttribute('aria-label', `seconds to add to ${SIDE_NAME[side]} (negative to take away)`);
    const moves = el('input', 'moves-count');
    Object.assign(moves, { type: 'number', min: '0', step: '1', placeholder: 'moves', inputMode: 'numeric' });
    moves.setAttribute('aria-label', `${SIDE_NAME[side]}'s corrected move count`);
    group.append(
      legend,
      button('Arrived', { action: 'arrive', side }, `${SIDE_NAME[side]} is at the board: no loss by default (FIDE Laws 6.7.1)`),
      button('+1 min', { action: 'adjust', side, ms: '60000' }, `give ${SIDE_NAME[side]} one minute`),
      button('−1 min', { action: 'adjust', side, ms: '-60000' }, `take one minute from ${SIDE_NAME[side]}`),
      seconds,
      button('Add s', { action: 'adjust-seconds', side }, 'add the seconds typed (negative: take away)'),
      button('Penalty', { action: 'penalty', side }, `illegal move by ${SIDE_NAME[side]}: ${SIDE_NAME[other(side)]} gets extra time (FIDE Laws 7.5.5)`),
      moves,
      button(
        'Set moves',
        { action: 'set-moves', side },
        `correct ${SIDE_NAME[side]}'s move counter (FIDE Laws 6.10.2; a later period's time is credited once)`,
      ),
    );
    return group;
  }

  /**
   * FIDE Laws 6.10.2: a control found set wrongly, corrected. The control is typed as the board's
   * configuration takes it (`40/5400+30:900+30`, a preset, `W360-B300`); the default time and
   * the increment timing stay as in force unless chosen.
   */
  private static controlForm(): HTMLElement {
    const form = el('fieldset', 'row control-form');
    const spec = el('input', 'control-spec');
    Object.assign(spec, { type: 'text', autocomplete: 'off', spellcheck: false });
    spec.setAttribute('aria-label', 'corrected time control, e.g. 40/5400+30:900+30');
    const defaultTime = el('select', 'control-default');
    defaultTime.setAttribute('aria-label', 'default time of the corrected control (FIDE Laws 6.7.1)');
    defaultTime.append(
      Object.assign(el('option', 'in-force', 'default time as in force'), { value: '' }),
      Object.assign(el('option', '', 'no default time'), { value: 'none' }),
      ...DEFAULT_TIME_CHOICES_S.map((s) => Object.assign(el('option', '', `default time ${s / 60} min`), { value: String(s) })),
    );
    const timing = el('select', 'control-timing');
    timing.setAttribute('aria-label', 'increment timing of the corrected control');
    timing.append(
      Object.assign(el('option', 'in-force', 'increment timing as in force'), { value: '' }),
      ...INCREMENT_TIMINGS.map((t) =>
        Object.assign(el('option', '', t === 'before-move' ? 'increment before the move (FIDE practice)' : 'increment after the move (PGN)'), { value: t }),
      ),
    );
    form.append(
      el('legend', '', 'Corrected time control'),
      spec,
      defaultTime,
      timing,
      button(
        'Correct control',
        { action: 'set-control' },
        'install the corrected control (FIDE Laws 6.10.2): both times, the move counters and the periods credited stay; the clock must be ready, paused or flagged',
      ),
    );
    return form;
  }

  private static resultRow(): HTMLElement {
    const result = el('div', 'row result-entry');
    const select = el('select', 'result-select');
    select.setAttribute('aria-label', 'result');
    select.append(Object.assign(el('option', '', 'result…'), { value: '' }));
    for (const value of GAME_RESULTS)
      select.append(Object.assign(el('option', '', RESULT_MEANING[value].label), { value, title: RESULT_MEANING[value].meaning }));
    result.append(select, button('Enter result', { action: 'result' }), button('Confirm', { action: 'confirm' }, "confirm the result (the arbiter's check)"));
    return result;
  }

  /** The label a control is known by in messages and the refusal list: "+1 min (white)". */
  private static controlName(b: HTMLButtonElement): string {
    return `${b.textContent!.trim()}${b.dataset.side ? ` (${b.dataset.side})` : ''}`;
  }

  /** Repaints the panel if it shows `b` (every change of the board, once per frame). */
  update(b: BoardView): void {
    if (this.boardId === b.id) this.render(b);
  }

  /** Repaints the times only (the repaint timer, while the panel is open). */
  repaintTimes(): void {
    const b = this.boardId ? this.board(this.boardId) : undefined;
    if (!b) return;
    const t = this.now();
    for (const side of SIDES) {
      const ms = remainingNow(b, side, t);
      setText(this.root.querySelector(`.panel-side.${side} .panel-time`), ms === null ? '' : formatClockTime(ms));
    }
    setText(this.root.querySelector('.panel-status'), `${statusOf(b, t)} · ${infoLine(b, t)}`);
  }

  private render(b: BoardView): void {
    const root = this.root;
    setText(root.querySelector('.panel-title'), label(b));
    for (const side of SIDES) {
      const player = b[side];
      setText(
        root.querySelector(`.panel-side.${side} .panel-name`),
        `${SIDE_NAME[side]}: ${player ? player.name + (player.team ? ` (${player.team})` : '') : '—'}`,
      );
    }
    const show = (selector: string, text: string) => {
      const node = root.querySelector<HTMLElement>(selector)!;
      setText(node, text);
      node.hidden = text === '';
    };
    show('.panel-control', controlLine(b));
    show('.panel-illegal', illegalMoveLine(b));
    show('.panel-match', matchLine(b));
    show('.panel-flags', flagLine(b));
    const note = restoreLine(b);
    show('.restore', note ? note.text : '');
    root.querySelector<HTMLElement>('.restore')!.dataset.kind = note ? note.kind : '';
    show('.panel-broadcast', broadcastLine(b));
    const bc = b.broadcast;
    root.querySelector<HTMLElement>('.panel-broadcast')!.dataset.kind = bc?.lichessError || bc?.warning || bc?.unmatchedCount ? 'warning' : '';
    show('.link-health', linkHealthLine(b));
    this.identity.render(b, this.now());
    this.repaintTimes();
    this.renderControlForm(b);
    this.preselectResult(b);

    // Shown only where they mean something: a side not yet at the board (FIDE Laws 6.7.1).
    for (const side of SIDES) {
      root.querySelector<HTMLElement>(`button[data-action="arrive"][data-side="${side}"]`)!.hidden = !(
        b.live &&
        b.live.present &&
        b.live.present[side] === false
      );
    }
    // Controls: enabled, or disabled with the reason written in the panel (and as the tooltip).
    const reasons = new Map<string, string[]>();
    for (const control of Array.from(root.querySelectorAll<HTMLButtonElement>('.controls button[data-action]'))) {
      const action = control.dataset.action!;
      const kind = (action === 'adjust-seconds' ? 'adjust' : action) as ActionKind;
      const refusal = refusalOf(kind, b, control.dataset.to as Side | undefined);
      control.disabled = refusal !== null;
      const title = refusal ?? control.dataset.help;
      if (title) control.title = title;
      else control.removeAttribute('title');
      if (refusal !== null && !control.hidden) reasons.set(refusal, [...(reasons.get(refusal) ?? []), Panel.controlName(control)]);
    }
    // Reinstate only where a game was lost by default.
    const reinstate = root.querySelector<HTMLButtonElement>('button[data-action="reinstate"]')!;
    reinstate.hidden = reinstate.disabled;
    if (reinstate.hidden)
      for (const [r, names] of reasons)
        reasons.set(
          r,
          names.filter((n) => n !== 'Reinstate'),
        );
    setText(root.querySelector('button[data-action="result"]'), resultButtonText(b));
    root.querySelector<HTMLUListElement>('.refusals')!.replaceChildren(
      ...[...reasons]
        .filter(([, names]) => names.length > 0)
        .map(([reason, names]) => {
          const li = el('li');
          li.append(el('b', '', `${names.join(', ')}: `), el('span', 'why', reason));
          return li;
        }),
    );

    // The last action's message, unless the board has moved on to another game or round.
    const messageEl = root.querySelector<HTMLElement>('.message')!;
    const shown = messageFor(this.messages.get(b.id), b);
    if (!shown) this.messages.delete(b.id);
    setText(messageEl, shown ? shown.text : '');
    messageEl.dataset.kind = shown ? shown.kind : '';
    this.chart.show(b);
  }

  /** The corrected control form says what stays as in force: the control, its default time and timing. */
  private renderControlForm(b: BoardView): void {
    const control = b.live?.clock?.control;
    const spec = this.root.querySelector<HTMLInputElement>('.control-spec')!;
    const placeholder = control ? formatTimeControl(control) : (b.timeControl ?? 'time control');
    if (spec.placeholder !== placeholder) spec.placeholder = placeholder;
    const defaultMs = control ? control.defaultTimeMs : (b.defaultTimeMs ?? null);
    setText(
      this.root.querySelector('.control-default option.in-force'),
      `default time as in force (${defaultMs === null ? 'none' : `${defaultMs / 60_000} min`})`,
    );
    setText(this.root.querySelector('.control-timing option.in-force'), `increment timing as in force (${control?.incrementTiming ?? 'before-move'})`);
  }

  /**
   * FIDE Laws 7.5.5: after a side's second illegal move the result entry is set to the
   * opponent's win (suggestedResult), once per board and game, never over the arbiter's own
   * choice; nothing is entered until the arbiter presses Enter result.
   */
  private preselectResult(b: BoardView): void {
    const suggestion = suggestedResult(b);
    if (suggestion === null) return;
    const key = `${b.id}|${gameOf(b)}|${suggestion}`;
    if (this.suggested === key) return;
    this.suggested = key;
    const select = this.root.querySelector<HTMLSelectElement>('.result-select')!;
    if (select.value === '') select.value = suggestion;
  }

  private say(b: BoardView, kind: 'ok' | 'error', text: string): void {
    this.messages.set(b.id, { game: gameOf(b), kind, text });
    if (this.boardId === b.id) this.render(b);
  }

  /** The action a control asks for, read from its inputs, or an Error naming what is wrong. */
  private actionOf(target: HTMLButtonElement, b: BoardView): Action | Error {
    const action = target.dataset.action!;
    const side = target.dataset.side as Side | undefined;
    const group = side ? this.root.querySelector<HTMLElement>(`.group[data-side="${side}"]`)! : null;
    switch (action) {
      case 'start':
        return { kind: 'start' };
      case 'pause':
      case 'resume':
      case 'reinstate':
      case 'confirm':
        return { kind: action };
      case 'takeback':
        // The dialog asks which (FIDE Laws 7.1); rewinding is the answer preselected.
        return { kind: 'takeback', times: 'rewind' };
      case 'increment':
      case 'delay':
        return { kind: action, ms: Number(target.dataset.ms) };
      case 'set-turn':
        return { kind: 'set-turn', side: target.dataset.to as Side };
      case 'set-control':
        return this.correctionOf(b);
      case 'arrive':
        return { kind: 'arrive', side: side! };
      case 'penalty':
        return { kind: 'penalty', side: side! };
      case 'adjust':
        return { kind: 'adjust', side: side!, ms: Number(target.dataset.ms) };
      case 'adjust-seconds': {
        const input = group!.querySelector<HTMLInputElement>('.seconds')!;
        const seconds = Number(input.value);
        if (input.value.trim() === '' || !Number.isInteger(seconds) || seconds === 0) {
          return new Error(`${SIDE_NAME[side!]}: type a whole number of seconds other than 0 (negative takes time away), not "${input.value}"`);
        }
        return { kind: 'adjust', side: side!, ms: seconds * 1000 };
      }
      case 'set-moves': {
        const input = group!.querySelector<HTMLInputElement>('.moves-count')!;
        const moves = Number(input.value);
        if (input.value.trim() === '' || !Number.isInteger(moves) || moves < 0) {
          return new Error(`${SIDE_NAME[side!]}: type the number of moves completed (a whole number ≥ 0), not "${input.value}"`);
        }
        return { kind: 'set-moves', side: side!, moves };
      }
      case 'result': {
        const result = this.root.querySelector<HTMLSelectElement>('.result-select')!.value;
        if (!result) return new Error('choose a result first');
        return { kind: 'result', result: result as GameResult };
      }
      default:
        return new Error(`unknown action "${action}"`);
    }
  }

  /** The corrected control form read, and checked by the one reader of a written control before anything is sent. */
  private correctionOf(b: BoardView): Action | Error {
    const text = this.root.querySelector<HTMLInputElement>('.control-spec')!.value.trim();
    if (text === '') return new Error('corrected control: type the control, e.g. 40/5400+30:900+30');
    const defaultTime = this.root.querySelector<HTMLSelectElement>('.control-default')!.value;
    const timing = this.root.querySelector<HTMLSelectElement>('.control-timing')!.value;
    const correction: ControlCorrection = {
      timeControl: text,
      ...(defaultTime === '' ? {} : { defaultTime: defaultTime === 'none' ? null : Number(defaultTime) }),
      ...(timing === '' ? {} : { incrementTiming: timing as IncrementTiming }),
    };
    const checked = correctedControl(b, correction);
    return checked instanceof Error ? checked : { kind: 'set-control', correction };
  }

  private async command(boardId: string, target: HTMLButtonElement): Promise<void> {
    const b = this.board(boardId);
    if (!b) return;
    // The words of the message are those of the button as the arbiter pressed it.
    const name = Panel.controlName(target);
    let action = this.actionOf(target, b);
    if (action instanceof Error) return this.say(b, 'error', action.message);
    const question = confirmationOf(b, action, this.now());
    if (question !== null) {
      const answer = await askConfirmation(this.dialog, question);
      if (!answer.ok) return this.say(b, 'ok', `${name}: cancelled, nothing was sent`);
      action = answeredAction(b, action, answer.chosen, answer.reason);
    }
    const what =
      action.kind === 'result' ? `${target.textContent!.trim()} ${action.result}` : action.kind === 'takeback' ? `${name} (${action.times} the times)` : name;
    // A start at a default time of 0 marks the chosen players present first (FIDE Laws 6.7.1).
    const arrived = action.kind === 'start' && action.arrive?.length ? action.arrive : [];
    target.disabled = true;
    try {
      let data: { board?: BoardView; arbiter: string } | null = null;
      for (const [i, request] of requestsOf(boardId, action).entries()) {
        try {
          data = await api<{ board?: BoardView; arbiter: string }>(...request);
        } catch (err) {
          // A refused arrival stops the start: nobody seated is forfeited by it.
          const step = i < arrived.length ? `${SIDE_NAME[arrived[i]]}'s arrival was refused, the clock was not started` : '';
          const before = arrived.slice(0, i).map((s) => SIDE_NAME[s]);
          throw new Error(
            `${step ? `${name}: ${step}: ` : ''}${(err as Error).message}${before.length && step ? ` (marked present before it: ${before.join(' and ')})` : ''}`,
          );
        }
        if (data.board) this.answered(data.board);
      }
      const first = arrived.length ? ` (${arrived.map((s) => SIDE_NAME[s]).join(' and ')} marked present first)` : '';
      this.say(data?.board ?? b, 'ok', `${what}: done by ${data?.arbiter ?? '?'}${first}`);
    } catch (err) {
      this.say(this.board(boardId) ?? b, 'error', (err as Error).message);
    } finally {
      target.disabled = false;
      const now = this.board(boardId);
      if (now && this.boardId === boardId) this.render(now);
    }
  }

  /** The pending list's Confirm (outside the panel): the same call, its message in the panel's store. */
  async confirmResult(boardId: string, target: HTMLButtonElement): Promise<void> {
    const b = this.board(boardId);
    if (!b) return;
    target.disabled = true;
    try {
      const data = await api<{ board?: BoardView; arbiter: string }>(...requestOf(boardId, { kind: 'confirm' }));
      if (data.board) this.answered(data.board);
      this.say(data.board ?? b, 'ok', `Confirm: done by ${data.arbiter}`);
    } catch (err) {
      this.say(b, 'error', (err as Error).message);
      target.title = (err as Error).message;
    } finally {
      target.disabled = false;
    }
  }
}
