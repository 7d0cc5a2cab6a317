import { describe, expect, it } from 'vitest';
import { OUR_VERSION, frameVersionReason, helloError, negotiate } from './handshake.ts';

describe('version negotiation (docs/protocol.md "Handshake and versioning")', () => {
  it('equal majors agree on the smaller minor: a newer minor peer is fine', () => {
    expect(negotiate('host', { major: 1, minor: 0 }, { major: 1, minor: 3 })).toEqual({ ok: true, version: { major: 1, minor: 0 } });
    expect(negotiate('clock', { major: 1, minor: 2 }, { major: 1, minor: 1 })).toEqual({ ok: true, version: { major: 1, minor: 1 } });
  });

  it('a different major is refused with a reason naming both versions and the fix', () => {
    const r = negotiate('host', { major: 1, minor: 0 }, { major: 2, minor: 1 });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.reason).toBe('protocol version mismatch: the clock speaks 2.1, this host speaks 1.0; major versions must be equal (update the host software)');
    const old = negotiate('host', { major: 2, minor: 0 }, { major: 1, minor: 4 });
    if (!old.ok) expect(old.reason).toMatch(/the clock speaks 1\.4, this host speaks 2\.0.*update the clock firmware/);
    else expect.unreachable('major 1 vs 2 must be refused');
  });

  it('frame-level mismatch names the frame major', () => {
    expect(frameVersionReason('host', OUR_VERSION, 2)).toMatch(/the clock sends frames of protocol 2\.x, this host speaks 1\.\d/);
  });

  it('a Hello must name the clock', () => {
    expect(helloError({ serialId: ' ', firmwareVersion: '1.0.0' })).toMatch(/hello\.serial_id/);
    expect(helloError({ serialId: 'CC-0001', firmwareVersion: '1.0.0' })).toBeNull();
  });
});
