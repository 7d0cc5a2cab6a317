// A Link's received application messages as an async iterator (`for await (const m of link)`):
// in order, ending when the link closes.
import type { EventEmitter } from 'node:events';
import type { ReceivedMessage } from './link-types.ts';

/** The messages `link` emits ('message') from now on, ending at its 'close' (or at once if `closed`). */
export function receivedMessages(link: EventEmitter, closed: boolean): AsyncIterator<ReceivedMessage> {
  const queue: ReceivedMessage[] = [];
  let wake: (() => void) | null = null;
  let ended = closed;
  const onMessage = (m: ReceivedMessage) => {
    queue.push(m);
    wake?.();
  };
  const onClose = () => {
    ended = true;
    wake?.();
  };
  link.on('message', onMessage);
  link.once('close', onClose);
  const detach = () => {
    link.off('message', onMessage);
    link.off('close', onClose);
  };
  return {
    next: async (): Promise<IteratorResult<ReceivedMessage>> => {
      for (;;) {
        const m = queue.shift();
        if (m) return { value: m, done: false };
        if (ended) {
          detach();
          return { value: undefined, done: true };
        }
        await new Promise<void>((r) => (wake = r));
        wake = null;
      }
    },
    return: async (): Promise<IteratorResult<ReceivedMessage>> => {
      detach();
      return { value: undefined, done: true };
    },
  };
}
