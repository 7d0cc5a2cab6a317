import { describe, expect, it } from 'vitest';
import { parseListenOption } from './listen-option.ts';

describe('parseListenOption (chessclock host --listen)', () => {
  it('defaults to loopback and reads HOST:PORT forms', () => {
    expect(parseListenOption(undefined)).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(parseListenOption('9000')).toEqual({ host: '127.0.0.1', port: 9000 });
    expect(parseListenOption('0.0.0.0:80')).toEqual({ host: '0.0.0.0', port: 80 });
    expect(parseListenOption('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
  });
  it('says what is wrong', () => {
    expect(() => parseListenOption('host:99999')).toThrow('--listen "host:99999": expected [HOST:]PORT');
    expect(() => parseListenOption('http://x')).toThrow(/expected \[HOST:\]PORT/);
  });
});
