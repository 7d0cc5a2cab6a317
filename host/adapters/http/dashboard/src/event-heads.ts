// One heading per event above its lines (docs/dashboard.md "The hall view"): the lines are in the
// hall's order (hall.ts hallOrder: event, round, board), so each event's lines follow each other;
// its name is said once, in a heading before its first line, and each line says only its round,
// board and game (board-text.ts rowLabel). A heading is hidden when the filter hides every line of
// its event. The headings are placed again after every change of the lines (a line added, a filter).

const heads = new WeakMap<HTMLElement, Map<string, HTMLElement>>();

/** Puts each event's heading right before its first line in `grid` (lines carry `data-event`); `name` gives the event's name. */
export function placeEventHeads(grid: HTMLElement, name: (event: string) => string): void {
  let mine = heads.get(grid);
  if (!mine) heads.set(grid, (mine = new Map()));
  const first = new Map<string, HTMLElement>();
  const shown = new Set<string>();
  for (const child of Array.from(grid.children) as HTMLElement[]) {
    const event = child.dataset.event;
    if (child.tagName !== 'ARTICLE' || event === undefined) continue;
    if (!first.has(event)) first.set(event, child);
    if (!child.hidden) shown.add(event);
  }
  for (const [event, head] of mine) {
    if (first.has(event)) continue;
    head.remove();
    mine.delete(event);
  }
  for (const [event, row] of first) {
    let head = mine.get(event);
    if (!head) {
      head = grid.ownerDocument.createElement('h2');
      head.className = 'event-head';
      head.dataset.eventHead = event;
      mine.set(event, head);
    }
    const text = name(event);
    if (head.textContent !== text) head.textContent = text;
    head.hidden = !shown.has(event);
    if (row.previousElementSibling !== head) grid.insertBefore(head, row);
  }
}
