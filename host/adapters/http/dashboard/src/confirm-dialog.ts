// The confirmation asked before a careful action (actions.ts confirmationOf): a modal <dialog>
// saying exactly what will change, Cancel focused by default (a stray Enter cancels), Escape
// cancels. A correction of a confirmed result asks for the reason in the same dialog.
import type { Confirmation } from './actions.ts';
import { el } from './dom.ts';

export interface Answer {
  readonly ok: boolean;
  readonly reason: string;
}

export function askConfirmation(dialog: HTMLDialogElement, c: Confirmation): Promise<Answer> {
  const title = dialog.querySelector<HTMLElement>('.confirm-title')!;
  const changes = dialog.querySelector<HTMLUListElement>('.confirm-changes')!;
  const note = dialog.querySelector<HTMLElement>('.confirm-note')!;
  const reasonLabel = dialog.querySelector<HTMLElement>('.confirm-reason')!;
  const reason = reasonLabel.querySelector<HTMLInputElement>('input')!;
  const problem = dialog.querySelector<HTMLElement>('.confirm-problem')!;
  const cancel = dialog.querySelector<HTMLButtonElement>('button.cancel')!;
  const ok = dialog.querySelector<HTMLButtonElement>('button.ok')!;
  title.textContent = c.title;
  changes.replaceChildren(...c.changes.map((line) => el('li', '', line)));
  note.textContent = c.note;
  reasonLabel.hidden = !c.needsReason;
  reason.value = '';
  problem.textContent = '';
  ok.textContent = c.confirmLabel;
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
      done({ ok: true, reason: reason.value.trim() });
    };
    const onCancel = (ev: Event) => {
      ev.preventDefault();
      done({ ok: false, reason: '' });
    };
    ok.addEventListener('click', onOk);
    cancel.addEventListener('click', onCancel);
    // Escape (the dialog's cancel event).
    dialog.addEventListener('cancel', onCancel);
    dialog.showModal();
    cancel.focus();
  });
}
