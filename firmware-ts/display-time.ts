// How a clock shows one side's remaining time (FIDE equipment standard for digital
// clocks): h:mm:ss at one hour or more, m:ss below an hour, and seconds with tenths
// below 20 seconds. Shown time is truncated, never rounded up, so the display reads
// 0:00.0 only in the last tenth and never shows time a player no longer has.

export function formatClockTime(ms: number): string {
  const t = Math.max(0, Math.floor(ms));
  if (t < 20_000) {
    const tenths = Math.floor(t / 100);
    return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const totalSeconds = Math.floor(t / 1000);
  const s = totalSeconds % 60;
  const totalMinutes = Math.floor(totalSeconds / 60);
  if (totalMinutes < 60) return `${totalMinutes}:${String(s).padStart(2, '0')}`;
  const m = totalMinutes % 60;
  return `${Math.floor(totalMinutes / 60)}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}
