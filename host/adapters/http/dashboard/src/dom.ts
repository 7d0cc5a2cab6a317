// The page's small DOM helpers: an element with text (never HTML: names are shown as typed),
// and a text written only when it changed (a write that changes nothing still costs a layout).

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

export function setText(node: Element | null, text: string): void {
  if (node && node.textContent !== text) node.textContent = text;
}

/** A button that is not a form's submit, with its data attributes and what it does as its tooltip. */
export function button(label: string, data: Record<string, string>, title?: string): HTMLButtonElement {
  const b = el('button', '', label);
  b.type = 'button';
  Object.assign(b.dataset, data);
  if (title) b.title = title;
  // What the button does, shown again once the rule book lets it be used (offer, in panel.ts).
  b.dataset.help = title || '';
  return b;
}
