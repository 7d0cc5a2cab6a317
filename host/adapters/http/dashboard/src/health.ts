// The host's health above the boards (docs/reliability.md): a fault the host survives but the
// arbiter must know (a full disk: nothing is acknowledged to the clocks until it clears) is shown
// until the host says it cleared. Asked every 5 s and when the feed comes back.

/** Reads GET /api/health into `alert` (hidden when all is well); the host unreachable changes nothing (the connection badge says so). */
export async function refreshHealth(alert: HTMLElement | null): Promise<void> {
  if (!alert) return;
  try {
    const res = await fetch('/api/health', { cache: 'no-store' });
    const h = (await res.json()) as { ok?: boolean; journal?: { ok?: boolean; reason?: string } };
    const problem = h.ok === false ? (h.journal && h.journal.ok === false ? `Journal fault: ${h.journal.reason}` : 'The host reports a fault.') : '';
    alert.hidden = problem === '';
    alert.textContent = problem;
  } catch {
    // The host is unreachable: the connection badge already says so.
  }
}
