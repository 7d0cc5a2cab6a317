// The journal's outbox hook (`new Journal(path, { outboxTopic: journalOutboxTopic })`): turns
// each journaled fact into the MQTT message to publish, drafted in the same SQLite
// transaction as the fact itself, so a fact is never journaled without its message or the
// other way round. The publisher then drains `journal.outboxStore(...)`.
import type { ClockEventRow, GameRow } from '../../store/types.ts';
import { encodeEvent, encodeState, PAYLOAD_VERSION } from './payload.ts';
import { eventsTopic, resultTopic, stateTopic } from './topics.ts';
import type { OutboxDraft } from './outbox-store.ts';
import { recordFromJournalRow, type BoardStateDraft } from '../../app/journal-records.ts';
import { RESULT_MEANING } from '../../../rules/vocabulary.ts';

export function journalOutboxTopic(kind: string, payload: unknown): OutboxDraft | null {
  switch (kind) {
    case 'clock-event': {
      // An event of a clock with no game assigned has no board address: not published.
      const record = recordFromJournalRow(payload as ClockEventRow);
      return record ? { topic: eventsTopic(record), payload: encodeEvent(record), retain: false } : null;
    }
    case 'result':
    case 'result-confirmed': {
      const g = payload as GameRow;
      return {
        topic: resultTopic(g),
        retain: true,
        payload: JSON.stringify({
          v: PAYLOAD_VERSION,
          event: g.event,
          round: g.round,
          board: g.board,
          gameNo: g.gameNo,
          white: g.white,
          black: g.black,
          result: g.result,
          // The vocabulary's reading (rules/vocabulary.ts): a forfeit (`+-`, `-+`, `--`) is a game not
          // played, and a double forfeit scores 0 for both; a subscriber need not know the codes.
          forfeit: g.result === null ? null : RESULT_MEANING[g.result].forfeit,
          points: g.result === null ? null : RESULT_MEANING[g.result].points,
          how: g.how,
          reportedBy: g.reportedBy,
          confirmed: g.confirmedBy !== null,
          confirmedBy: g.confirmedBy,
        }),
      };
    }
    case 'board-state': {
      const d = payload as BoardStateDraft;
      return { topic: stateTopic(d), payload: encodeState(d, d.live), retain: true };
    }
    default:
      // arbiter-action, match-decided, result-report, ...: journaled, not published (yet).
      return null;
  }
}
