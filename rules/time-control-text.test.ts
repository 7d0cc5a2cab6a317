import { describe, expect, it } from 'vitest';
import { parsePgnTimeControl, presetTimeControl, timeControl } from '../protocol/time-control.ts';
import { describeTimeControl, describeTimeControlShort } from './time-control-text.ts';

const both = (pgn: string, defaultTime: number | null = null) => timeControl(parsePgnTimeControl(pgn), parsePgnTimeControl(pgn), { defaultTime });

describe('describeTimeControl: the control in words (terminal title, setup)', () => {
  it('FIDE Laws 6.1 / 6.10.1: names the presets of the regulations in words', () => {
    expect(describeTimeControl(presetTimeControl('classical'))).toBe('90 min/40 moves + 15 min, +30 s from move 1');
    expect(describeTimeControl(presetTimeControl('rapid'))).toBe('15 min, +10 s from move 1');
    expect(describeTimeControl(presetTimeControl('armageddon'))).toBe('White 6 min, Black 5 min (draw = Black wins)');
    expect(describeTimeControl(presetTimeControl('sudden-death-60'))).toBe('60 min sudden death');
  });

  it('FIDE Laws 6.7.1: adds the default time; other shapes (per-stage increments, sandclock, seconds)', () => {
    expect(describeTimeControl(presetTimeControl('sudden-death-60', { defaultTime: 900 }))).toBe('60 min sudden death; default time 15 min');
    expect(describeTimeControl(both('40/6000:1800+30'))).toBe('100 min/40 moves + 30 min (+30 s)');
    expect(describeTimeControl(both('*60'))).toBe('sandclock 1 min');
    expect(describeTimeControl(both('90+2'))).toBe('1 min 30 s, +2 s from move 1');
  });

  it('FIDE Laws 6.1: the periods fit the 16-column LCD in the short form', () => {
    expect(describeTimeControlShort(presetTimeControl('classical'))).toBe('90m/40+15m +30s');
    expect(describeTimeControlShort(presetTimeControl('rapid'))).toBe('15m +10s');
    expect(describeTimeControlShort(presetTimeControl('armageddon'))).toBe('W 6m  B 5m');
    expect(describeTimeControlShort(presetTimeControl('sudden-death-60'))).toBe('60m sudden death');
  });
});
