import { describe, expect, it } from 'vitest';
import { parseMqttOption } from './mqtt-target.ts';

describe('parseMqttOption (chessclock host --mqtt)', () => {
  it('reads the documented forms', () => {
    expect(parseMqttOption(undefined)).toEqual({ kind: 'none' });
    expect(parseMqttOption('none')).toEqual({ kind: 'none' });
    expect(parseMqttOption('embedded')).toEqual({ kind: 'embedded', host: '127.0.0.1', port: 1883 });
    expect(parseMqttOption('embedded:0')).toEqual({ kind: 'embedded', host: '127.0.0.1', port: 0 });
    expect(parseMqttOption('embedded:0.0.0.0:1884')).toEqual({ kind: 'embedded', host: '0.0.0.0', port: 1884 });
    expect(parseMqttOption('mqtt://broker.local:1883')).toEqual({ kind: 'external', url: 'mqtt://broker.local:1883' });
    expect(parseMqttOption('wss://relay.example/mqtt')).toEqual({ kind: 'external', url: 'wss://relay.example/mqtt' });
  });

  it('says what is wrong with a bad value', () => {
    expect(() => parseMqttOption('embedded:70000')).toThrow(/bad port "70000"/);
    expect(() => parseMqttOption('embedded::1883')).toThrow(/empty host/);
    expect(() => parseMqttOption('http://x:80')).toThrow(/unsupported scheme "http:"/);
    expect(() => parseMqttOption('localhost:1883')).toThrow(/unsupported scheme "localhost:" \(expected "embedded"/);
    expect(() => parseMqttOption('two words')).toThrow(/expected "embedded"/);
  });

  it('never repeats a password from the URL in its error (an error is a log line too)', () => {
    expect(() => parseMqttOption('http://user:s3cret-pw@broker:8080')).toThrow('--mqtt "http://user:***@broker:8080": unsupported scheme "http:"');
  });
});
