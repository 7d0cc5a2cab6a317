// Stopping a long-running command (`chessclock host`, `chessclock hall`) in bounded time,
// whatever state its peers are in (docs/host.md "Stopping"): the first SIGINT/SIGTERM closes
// everything in order (adapters, host, journal); a second one, or `deadlineMs` passing, exits
// at once. The journal is synchronous (better-sqlite3, synchronous=FULL): every acknowledged
// event is already on disk, and unsent MQTT messages wait in its outbox for the next start.
import { once } from 'node:events';

export const STOP_DEADLINE_MS = 10_000;

/** Resolves with the signal's name at the first SIGINT or SIGTERM. */
export async function stopSignal(): Promise<string> {
  // Waiting for a signal does not keep Node's loop alive: a host with nothing else pending
  // would otherwise end at once (exit 13, unsettled top-level await) instead of serving.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  try {
    const [signal] = await Promise.race([once(process, 'SIGINT').then(() => ['SIGINT']), once(process, 'SIGTERM').then(() => ['SIGTERM'])]);
    return signal;
  } finally {
    clearInterval(keepAlive);
  }
}

/**
 * Runs `close` with a deadline. Returns the exit code: 0 when it finished in time. After it
 * finishes, a handle someone left open (a socket to a dead broker, a timer) may not keep the
 * process alive: an unref'd timer exits if the event loop has not drained by then.
 */
export async function stopWithin(close: () => Promise<void>, log: (line: string) => void, deadlineMs = STOP_DEADLINE_MS): Promise<number> {
  const forced = (why: string): void => {
    log(`stopping: ${why}: exiting now (the journal holds every acknowledged event)`);
    process.exit(1);
  };
  const deadline = setTimeout(() => forced(`not stopped within ${deadlineMs / 1000} s`), deadlineMs);
  const again = (): void => forced('second signal');
  process.once('SIGINT', again);
  process.once('SIGTERM', again);
  try {
    await close();
  } catch (err) {
    log(`stopping: ${(err as Error).message}`);
  } finally {
    clearTimeout(deadline);
    process.off('SIGINT', again);
    process.off('SIGTERM', again);
  }
  setTimeout(() => process.exit(process.exitCode ?? 0), 2_000).unref();
  return 0;
}
