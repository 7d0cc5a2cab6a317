// The shape of a question the page asks before an action (confirmations.ts builds them, for an
// action or a start at a default time of 0 (presence.ts); confirm-dialog.ts asks them). Types
// only, so the builders and the dialog share them without importing each other.

/** One answer of a confirmation's question, with what it means (each line a change). */
export interface ChoiceOption {
  readonly value: string;
  readonly label: string;
  readonly lines: readonly string[];
  /** Chosen to begin with. */
  readonly checked: boolean;
}

/** A question inside a confirmation: one answer of several (radio buttons), or any number (checkboxes). */
export interface Choice {
  readonly legend: string;
  readonly multiple: boolean;
  readonly options: readonly ChoiceOption[];
}

/** The question asked before an action, with what exactly will change; null: sent at once. */
export interface Confirmation {
  /** "Take 1 min from White on board 3?" */
  readonly title: string;
  /** Each change, `Board 3, White (Novak): 4:32 → 3:32`; then what the rule says. */
  readonly changes: readonly string[];
  readonly note: string;
  /** A correction of a confirmed result is journaled with a reason: the dialog asks for it. */
  readonly needsReason?: boolean;
  /** A choice the action needs (the take-back's times, who is present at a start). */
  readonly choice?: Choice;
  readonly confirmLabel: string;
}
