// Disk full with MQTT (docs/reliability.md, "Disk full" and "The MQTT outbox cannot be
// written"): a real host with the publisher on its own thread reading the journal's file on a
// real 4 MiB tmpfs (test/small-disk.ts), the embedded broker, and a simulated clock. While the
// disk is full the host says so once per component when the fault begins and once when it
// clears (with how many writes were refused meanwhile), retries with a backoff instead of at
// once, never says "cleared" while the disk is still full, and answers an arbiter's write with
// 503 and the reason (docs/api.md, "Errors"). After space returns everything is written once.
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN, boardId, buildRig, closeRig, configuredFor, type MatchRig } from './e2e-match.ts';
import { flowing, waitFor } from './e2e-harness.ts';
import { fillDisk, isRoot, smallDisk } from './small-disk.ts';
import { publishHostToMqtt, startHostMqttThread } from '../host/adapters/mqtt/host-mqtt.ts';
import { subscribeClockEvents } from '../host/adapters/mqtt/subscriber.ts';
import type { EventPayload } from '../host/adapters/mqtt/payload.ts';

if (!isRoot && process.env.CI) throw new Error('the disk-full test mounts a tmpfs and needs root under CI');

/** How long the disk stays full: the window in which the log lines and the host's CPU are measured. */
const FULL_MS = 3_000;
const CLEARED = /cleared|writes again/i;

describe('disk full with MQTT: quiet, right, and 503 for an arbiter', () => {
  let rig: MatchRig | null = null;
  let disk: ReturnType<typeof smallDisk> | null = null;
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    if (rig) await closeRig(rig);
    rig = null;
    disk?.unmount();
    disk = null;
  });

  it.skipIf(!isRoot)(
    'docs/reliability.md "Disk full": a handful of log lines, not thousands; no "cleared" while full; the arbiter\'s write 503 with the reason (docs/api.md "Conventions", the errors table); one clear line and everything written once after',
    async () => {
      disk = smallDisk(4);
      const lines: string[] = [];
      const log = (line: string): void => void lines.push(line);
      rig = await buildRig({ journalFile: join(disk.dir, 'clocks.db'), log });
      const r = rig;
      const hostMqtt = (await startHostMqttThread({
        target: 'embedded:0',
        anonymousRead: true,
        outbox: r.journal.outboxStore(() => r.hostClock.nowUtcMs()),
        journalPath: r.journal.path,
        clientId: 'disk-full-host',
        onError: (e) => log(`mqtt: ${e.message}`),
      }))!;
      const stop = publishHostToMqtt(r.host.state, hostMqtt, 50);
      cleanups.push(() => hostMqtt.close(), stop);
      const sub = mqtt.connect(hostMqtt.url, { clientId: 'disk-full-sub' });
      cleanups.push(() => sub.endAsync(true));
      const seen: EventPayload[] = [];
      await subscribeClockEvents(sub, (e) => seen.push(e));

      const game = await configuredFor(r, 1);
      const c = r.clocks[0];
      await c.clock.tap('startPause');
      await waitFor('the start at the subscriber', () => seen.some((e) => e.type === 'started'), 10_000, flowing(r.sim));

      const filler = fillDisk(disk.dir);
      const before = lines.length;
      const cpu0 = process.cpuUsage();
      const t0 = Date.now();
      await c.press('white');
      await waitFor('the fault reported on /api/health', () => r.host.state.health().journal.ok === false, 15_000, flowing(r.sim, 5));
      // An arbiter's write meets the full disk: 503 with the reason in words.
      const refused = await r.api.inject({
        method: 'PUT',
        url: `/api/boards/${boardId(r)}/result`,
        headers: { authorization: `Bearer ${TOKEN}` },
        payload: { result: '1/2-1/2' },
      });
      // The measured window: the host on its own, simulated time standing still.
      await waitFor(`${FULL_MS} ms of a full disk`, () => Date.now() - t0 >= FULL_MS, FULL_MS + 2_000);
      const cpu = process.cpuUsage(cpu0);
      const wallMs = Date.now() - t0;
      const during = lines.slice(before);
      const stillFull = r.host.state.health().journal.ok;
      // The storage fault's own lines: the journal's and the publisher's, once each as it begins.
      // A clock's lines (its line dropped for an event the host could not journal, its greeting
      // again) come with each reconnect, paced by the host's backoff: logged twice per clock, counted apart.
      const faultLines = during.filter((l) => !l.startsWith('clock '));
      const cpuMs = (cpu.user + cpu.system) / 1000;
      console.log(
        `disk full for ${wallMs} ms: ${faultLines.length} storage-fault log lines (${during.length - faultLines.length} clock reconnect lines), host CPU ${cpuMs.toFixed(0)} ms = ${((cpuMs / wallMs) * 100).toFixed(1)}% of a core\n${faultLines.join('\n')}`,
      );
      expect(refused.statusCode).toBe(503);
      expect(refused.json().message).toMatch(/disk is full \(SQLITE_FULL/);
      expect(during.filter((l) => CLEARED.test(l))).toEqual([]);
      expect(stillFull).toBe(false);
      expect(faultLines.length).toBeLessThanOrEqual(4);
      // The clock's line: its first drop and return are logged, the rest counted (docs/reliability.md "Disk full").
      expect(during.length - faultLines.length).toBeLessThanOrEqual(2);

      unlinkSync(filler);
      const moved = () => r.journal.eventsByGame(game.gameId).filter((e) => e.type === 'moved');
      await waitFor('the press journaled once space returned', () => moved().length === 1, 20_000, flowing(r.sim, 5));
      await waitFor('the fault cleared', () => r.host.state.health().journal.ok, 10_000, flowing(r.sim, 5));
      await waitFor('the outbox emptied', () => r.journal.outboxStore(() => 0).pendingCount() === 0, 15_000, flowing(r.sim, 5));
      await waitFor('the press at the subscriber', () => seen.some((e) => e.type === 'moved'), 10_000, flowing(r.sim, 5));
      const after = lines.slice(before + during.length);
      console.log(`after space returned:\n${after.filter((l) => !l.startsWith('clock ')).join('\n')}`);
      // One clear line from the journal (with the count of refused writes), one per publisher kind that was refused.
      expect(after.filter((l) => /journal writes again/.test(l))).toEqual([expect.stringMatching(/cleared \(\d+ writes refused meanwhile\)/)]);
      expect(after.filter((l) => /done again after/.test(l)).length).toBeLessThanOrEqual(2);
      expect(after.filter((l) => /counted, not logged/.test(l)).length).toBeLessThanOrEqual(1);
      // The same host with room on its disk, for the CPU figure's comparison (docs/reliability.md).
      const idle0 = process.cpuUsage();
      const i0 = Date.now();
      await waitFor('a second of room on the disk again', () => Date.now() - i0 >= 1_000, 3_000);
      const idleCpu = process.cpuUsage(idle0);
      console.log(`room on the disk for ${Date.now() - i0} ms: host CPU ${((idleCpu.user + idleCpu.system) / 10 / (Date.now() - i0)).toFixed(1)}% of a core`);
      expect(moved()).toHaveLength(1);
      expect(seen.filter((e) => e.type === 'moved')).toHaveLength(1);
    },
    60_000,
  );
});
