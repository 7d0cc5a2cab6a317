// Disk full (docs/reliability.md "Faults"): the journal's disk has no space left. The host
// stays up, acknowledges nothing it could not write, reports the fault on /api/health, and
// recovers by itself once space returns. The disk is a real one: a 4 MiB tmpfs mounted by the
// test (that needs root, as CI has), filled with a file until the kernel answers ENOSPC, so
// every SQLite write to the WAL meets a real SQLITE_FULL; deleting the file gives space back.
// (SQLite's max_page_count was tried first: it refuses only writes that grow the file, and a
// small write fits in a page's free space, so it does not model a full disk.)
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryOutboxStore } from '../protocol/session-api.ts';
import { buildRig, closeRig, configuredFor, type MatchRig } from './e2e-match.ts';
import { flowing, waitFor } from './e2e-harness.ts';
import { fillDisk, isRoot, smallDisk } from './small-disk.ts';

const moved = (rig: MatchRig) => rig.journal.eventsAfter(0, 10_000).filter((e) => e.type === 'moved');

if (!isRoot && process.env.CI) throw new Error('the disk-full test mounts a tmpfs and needs root under CI');
if (!isRoot) console.warn('host-disk-full: skipped, mounting a small tmpfs needs root (CI runs it as root)');

describe('disk full: the host stays up, acknowledges nothing unwritten, reports and recovers', () => {
  let rig: MatchRig | null = null;
  let disk: ReturnType<typeof smallDisk> | null = null;
  afterEach(async () => {
    if (rig) await closeRig(rig);
    rig = null;
    disk?.unmount();
    disk = null;
  });

  it.skipIf(!isRoot)(
    'a press and a reconnect on a full disk: no crash, no ack, health says why; space returns and the press is journaled once',
    async () => {
      disk = smallDisk(4);
      rig = await buildRig({ journalFile: join(disk.dir, 'clocks.db') });
      await configuredFor(rig, 1);
      const c = rig.clocks[0];
      await c.clock.tap('startPause');
      await waitFor('the start journaled', () => rig!.journal.eventsAfter(0, 100).some((e) => e.type === 'started'), 10_000, flowing(rig.sim));
      const filler = fillDisk(disk.dir);
      // A cable pull and back: the clock greets again (the journal notes the clock as seen).
      c.unplugMemory();
      const session = rig.host.lines().find((s) => s.key === 'memory:table-1')!;
      await waitFor('offline', () => !session.online, 10_000, flowing(rig.sim, 5));
      c.plugMemory();
      rig.sim.advanceBy(5_000);
      await c.press('white');
      await waitFor('the fault reported on /api/health', () => rig!.host.state.health().journal.ok === false, 15_000, flowing(rig.sim, 5));
      const health = (await rig.api.inject({ method: 'GET', url: '/api/health' })).json();
      expect(health.ok).toBe(false);
      expect(health.journal).toMatchObject({ ok: false, code: 'SQLITE_FULL' });
      expect(health.journal.reason).toMatch(/full/i);
      // Not journaled, so not acknowledged: still in the clock's outbox.
      expect(moved(rig)).toHaveLength(0);
      expect(JSON.stringify((c.outbox as MemoryOutboxStore).saved?.entries ?? [])).not.toBe('[]');
      unlinkSync(filler);
      await waitFor('the press journaled once space returned', () => moved(rig!).length === 1, 20_000, flowing(rig.sim, 5));
      await waitFor('the fault cleared', () => rig!.host.state.health().journal.ok, 10_000, flowing(rig.sim, 5));
      expect((await rig.api.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ ok: true, journal: { ok: true } });
      expect(moved(rig)).toHaveLength(1);
    },
    60_000,
  );
});
