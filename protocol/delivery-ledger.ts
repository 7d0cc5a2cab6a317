// What a Link delivered of each peer boot and, with `deferAck`, what the application handled:
// a reconnect delivers nothing twice, and a message is acknowledged only once it and every
// message before it are handled ("ack only after the write is durable"; docs/protocol.md, "Session").
export class DeliveryLedger {
  /** Highest seq delivered per peer boot: a reconnect must not deliver them again. */
  private readonly deliveredThrough = new Map<number, number>();
  /** deferAck: per peer boot, delivered seqs not yet handled (ascending) and those handled early. */
  private readonly unhandled = new Map<number, { queue: number[]; done: Set<number> }>();

  /** The highest seq of `peerBoot` delivered so far (0: none). */
  deliveredUpTo(peerBoot: number): number {
    return this.deliveredThrough.get(peerBoot) ?? 0;
  }

  /** `seq` of `peerBoot` was delivered; with `awaitHandling` it waits for `markHandled`. */
  delivered(peerBoot: number, seq: number, awaitHandling: boolean): void {
    this.deliveredThrough.set(peerBoot, seq);
    if (!awaitHandling) return;
    let u = this.unhandled.get(peerBoot);
    if (!u) this.unhandled.set(peerBoot, (u = { queue: [], done: new Set() }));
    u.queue.push(seq);
  }

  /** The highest seq of `peerBoot` such that every delivered seq up to it is handled. */
  handledThrough(peerBoot: number): number {
    const u = this.unhandled.get(peerBoot);
    if (u && u.queue.length > 0) return u.queue[0] - 1;
    return this.deliveredUpTo(peerBoot);
  }

  /** Forgets `peerBoot`: its seqs are delivered again from its next greeting (a peer whose seqs went back: docs/protocol.md "Sequence numbers and identity"). */
  forget(peerBoot: number): void {
    this.deliveredThrough.delete(peerBoot);
    this.unhandled.delete(peerBoot);
  }

  /** The application handled `seq` of `peerBoot`; false when nothing of that boot awaits handling. */
  markHandled(peerBoot: number, seq: number): boolean {
    const u = this.unhandled.get(peerBoot);
    if (!u) return false;
    u.done.add(seq);
    while (u.queue.length > 0 && u.done.has(u.queue[0])) u.done.delete(u.queue.shift()!);
    return true;
  }
}
