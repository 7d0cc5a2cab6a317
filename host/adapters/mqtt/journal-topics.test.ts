// The MQTT result message drafted from the journal (docs/mqtt.md "result"): a double forfeit
// goes out as such, `--` with no point for either side, never as a played result.
import { describe, expect, it } from 'vitest';
import { presetTimeControl } from '../../../protocol/time-control.ts';
import { Journal } from '../../store/journal.ts';
import { journalOutboxTopic } from './journal-topics.ts';

describe('MQTT result message from the journal', () => {
  it('a double forfeit (FIDE Laws 6.7.1, neither player came) is published as "--", forfeit, 0 points each; a played result as itself', () => {
    const j = new Journal(':memory:', { outboxTopic: journalOutboxTopic });
    try {
      const g = j.createGame({
        event: 'ivanovo-2018',
        round: 1,
        board: 3,
        kind: 'standard',
        white: 'A',
        black: 'B',
        timeControl: presetTimeControl('sudden-death-60'),
        clockId: null,
        createdUtcMs: 0,
      });
      j.reportResult(g.gameId, { result: '--', how: 'forfeit-lateness', source: 'arbiter', arbiter: 'Главный судья', utcMs: 1_000 });
      j.confirmResult(g.gameId, 'Главный судья', 2_000);
      expect(j.getGame(g.gameId)).toMatchObject({ result: '--', confirmedBy: 'Главный судья' });
      const results = j.pendingOutbox(100).filter((r) => r.topic?.endsWith('/result'));
      expect(results).toHaveLength(2); // recorded, then confirmed
      const last = JSON.parse(String(results.at(-1)!.payload));
      expect(last).toMatchObject({ event: 'ivanovo-2018', round: 1, board: 3, result: '--', forfeit: true, points: { white: 0, black: 0 }, confirmed: true });
      expect(results.at(-1)!.retain).toBeTruthy();

      const played = j.createGame({
        event: 'ivanovo-2018',
        round: 1,
        board: 4,
        kind: 'standard',
        white: 'C',
        black: 'D',
        timeControl: presetTimeControl('sudden-death-60'),
        clockId: null,
        createdUtcMs: 0,
      });
      j.reportResult(played.gameId, { result: '1/2-1/2', how: 'played', source: 'arbiter', arbiter: 'Главный судья', utcMs: 3_000 });
      const draw = JSON.parse(
        String(
          j
            .pendingOutbox(100)
            .filter((r) => r.topic?.endsWith('/result'))
            .at(-1)!.payload,
        ),
      );
      expect(draw).toMatchObject({ board: 4, result: '1/2-1/2', forfeit: false, points: { white: 0.5, black: 0.5 }, confirmed: false });
    } finally {
      j.close();
    }
  });
});
