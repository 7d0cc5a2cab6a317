import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeSegment, encodeSegment, eventsTopic, parseBoardTopic, stateTopic, topicFilter, TopicError } from './topics.ts';

describe('MQTT topic scheme (docs/mqtt.md)', () => {
  it('names the events and retained state topics of a board', () => {
    expect(eventsTopic({ event: 'SLO-CH-2025', round: 3, board: 1 })).toBe('chessclock/v1/SLO-CH-2025/3/1/events');
    expect(stateTopic({ event: 'SLO-CH-2025', round: 3, board: 1 })).toBe('chessclock/v1/SLO-CH-2025/3/1/state');
  });

  it('escapes spaces, slashes, wildcards, % and $ in event names (MQTT 3.1.1 §4.7.1, RFC 3986 §2.1)', () => {
    expect(encodeSegment('Slovenian Final 2025/26')).toBe('Slovenian%20Final%202025%2F26');
    expect(encodeSegment('a+b#c%d$e')).toBe('a%2Bb%23c%25d%24e');
    // Letters of any script stay readable.
    expect(encodeSegment('Šahovsko prvenstvo')).toBe('Šahovsko%20prvenstvo');
    expect(encodeSegment('Иваново')).toBe('Иваново');
    expect(encodeSegment('tab\there')).toBe('tab%09here');
  });

  it('refuses an empty event name (an empty level is a different topic)', () => {
    expect(() => eventsTopic({ event: '', round: 1, board: 1 })).toThrow(/empty event/);
  });

  it('refuses a round or board that is not a whole number', () => {
    expect(() => eventsTopic({ event: 'x', round: 1.5, board: 1 })).toThrow(TopicError);
    expect(() => eventsTopic({ event: 'x', round: 1, board: -2 })).toThrow(/board/);
  });

  it('round-trips any event name, and an encoded segment never holds / + # or U+0000 (MQTT 3.1.1 §4.7.1, §1.5.3)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: 'binary' }), fc.nat(999), fc.nat(999), (event, round, board) => {
        const seg = encodeSegment(event);
        expect(seg).not.toMatch(/[/+#\u0000]/u);
        expect(seg.startsWith('$')).toBe(false);
        expect(decodeSegment(seg)).toBe(event);
        const parsed = parseBoardTopic(eventsTopic({ event, round, board }));
        expect(parsed).toEqual({ event, round, board, kind: 'events' });
      }),
    );
  });

  it('builds wildcard filters for the parts left out', () => {
    expect(topicFilter('events')).toBe('chessclock/v1/+/+/+/events');
    expect(topicFilter('state', { event: 'Team Swiss/Ivanovo', round: 2 })).toBe('chessclock/v1/Team%20Swiss%2FIvanovo/2/+/state');
  });

  it('names the bad level when parsing a foreign topic', () => {
    expect(() => parseBoardTopic('chessclock/v1/x/one/1/events')).toThrow(/bad round "one"/);
    expect(() => parseBoardTopic('chessclock/v1/x/1/1/moves')).toThrow(/bad kind "moves"/);
    expect(() => parseBoardTopic('other/v1/x/1/1/events')).toThrow(/is not chessclock\/v1/);
    expect(() => parseBoardTopic('chessclock/v1/%E0%A4%A/1/1/events')).toThrow(/bad escape/);
  });
});
