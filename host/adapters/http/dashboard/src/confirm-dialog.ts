// The confirmation asked before a careful action (confirmations.ts confirmationOf): a modal
// <dialog> saying exactly what will change, Cancel focused by default (a stray Enter cancels),
// Escape cancels. A correction of a confirmed result asks for the reason in the same dialog; an
// action that needs a choice (the take-back's clock times, who is at the board at a default time
// of 0) shows it as radio buttons or checkboxes, each answer with what it changes.
import type { Choice, Confirmation } from './confirmation.ts';
import { el } from './dom.ts';

export interface Answer {
  readonly ok: boolean;
  readonly reason: string;
  /** The values of the choice's answers chosen (empty without a choice). */
  readonly chosen: readonly string[];
}

let choiceIds = 0;

/** The choice's inputs, each in its label with the lines of what it changes. */
function renderChoice(fieldset: HTMLFieldSetElement, choice: Choice | undefined): void {
  fieldset.hidden = !choice;
  fieldset.replaceChildren();
  if (!choice) return;
  const legend = el('legend', '', choice.legend);
  const name = `choice-${++choiceIds}`;
  fieldset.dataset.multiple = String(choice.multiple);
  const options = choice.options.map((o) => {
    const label = el('label', 'choice-option');
    const input = el('input');
    input.type = choice.multiple ? 'checkbox' : 'radio';
    input.name = name;
    input.value = o.value;
    input.checked = o.checked;
    const text = el('span', 'choice-text');
    text.append(el('b', 'choice-label', o.label), ...o.lines.map((line) => el('span', 'choice-line', line)));
    label.append(input, text);
    return label;
  });
  const list = el('div', 'choice-options');
  list.append(...options);
  fieldset.append(legend, list);
}

export function askConfirmation(dialog: HTMLDialogElement, c: Confirmation): Promise<Answer> {
  const title = dialog.querySelector<HTMLElement>('.confirm-title')!;
  const changes = dialog.querySelector<HTMLUListElement>('.confirm-changes')!;
  const choice = dialog.querySelector<HTMLFieldSetElement>('.confirm-choice')!;
  const note = dialog.querySelector<HTMLElement>('.confirm-note')!;
  const reasonLabel = dialog.querySelector<HTMLElement>('.confirm-reason')!;
  const reason = reasonLabel.querySelector<HTMLInputElement>('input')!;
  const problem = dialog.querySelector<HTMLElement>('.confirm-problem')!;
  const cancel = dialog.querySelector<HTMLButtonElement>('button.cancel')!;
  const ok = dialog.querySelector<HTMLButtonElement>('button.ok')!;
  title.textContent = c.title;
  changes.replaceChildren(...c.changes.map((line) => el('li', '', line)));
  changes.hidden = c.changes.length === 0;
  renderChoice(choice, c.choice);
  note.textContent = c.note;
  reasonLabel.hidden = !c.needsReason;
  reason.value = '';
  problem.textContent = '';
  ok.textContent = c.confirmLabel;
  const chosen = () => Array.from(choice.querySelectorAll<HTMLInputElement>('input:checked')).map((i) => i.value);
  return new Promise((resolve) => {
    const done = (answer: Answer) => {
      ok.removeEventListener('click', onOk);
      cancel.removeEventListener('click', onCancel);
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    const onOk = (ev: Event) => {
      ev.preventDefault();
      if (c.needsReason && reason.value.trim() === '') {
        problem.textContent = 'say why: a confirmed result is corrected only with a reason';
        reason.focus();
        return;
      }
      if (c.choice && !c.choice.multiple && chosen().length === 0) {
        problem.textContent = `choose one: ${c.choice.legend}`;
        return;
      }
      done({ ok: true, reason: reason.value.trim(), chosen: chosen() });
    };
    const onCancel = (ev: Event) => {
      ev.preventDefault();
      done({ ok: false, reason: '', chosen: [] });
    };
    ok.addEventListener('click', onOk);
    cancel.addEventListener('click', onCancel);
    // Escape (the dialog's cancel event).
    dialog.addEventListener('cancel', onCancel);
    dialog.showModal();
    cancel.focus();
  });
}
