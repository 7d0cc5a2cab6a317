// Version negotiation for the Hello / HelloAck exchange (docs/protocol.md, "Handshake and
// versioning"). Pure: the link calls these and puts the answers on the wire.
//
// Rules:
//  - MAJOR versions must be equal. A peer speaking another major gets a Nack with code
//    UNSUPPORTED_VERSION whose reason names both versions, and the link does not go up.
//    (The frame's version byte is the major too, so a different major is usually seen
//    before any payload is parsed; the Hello fields catch a peer that frames as 1 but
//    claims another major.)
//  - MINOR versions may differ: the session runs at the smaller one. A newer peer's extra
//    fields and message types are skipped by the older side (protobuf keeps unknown fields;
//    an unknown body case is acked and not delivered), never fatal.
import { PROTOCOL_MAJOR, PROTOCOL_MINOR } from './frame-format.ts';

export interface ProtocolVersion {
  readonly major: number;
  readonly minor: number;
}

export const OUR_VERSION: ProtocolVersion = { major: PROTOCOL_MAJOR, minor: PROTOCOL_MINOR };

/** The minor from which both ends send selective acks (docs/protocol.md, "Selective acknowledgement"). */
export const SACK_MINOR = 3;

export type Role = 'clock' | 'host';

export type Negotiation = { readonly ok: true; readonly version: ProtocolVersion } | { readonly ok: false; readonly reason: string };

export const formatVersion = (v: ProtocolVersion): string => `${v.major}.${v.minor}`;

/**
 * Decides whether a peer's protocol version can be spoken. `me` is our role (the peer is the
 * other one); the reason text is shown to an arbiter, so it names both sides and what to do.
 */
export function negotiate(me: Role, ours: ProtocolVersion, theirs: ProtocolVersion): Negotiation {
  const peer = me === 'host' ? 'clock' : 'host';
  if (theirs.major !== ours.major) {
    const older = theirs.major < ours.major ? peer : me === 'host' ? 'host' : 'clock';
    const fix = older === 'clock' ? 'update the clock firmware' : 'update the host software';
    return {
      ok: false,
      reason: `protocol version mismatch: the ${peer} speaks ${formatVersion(theirs)}, this ${me} speaks ${formatVersion(ours)}; major versions must be equal (${fix})`,
    };
  }
  return { ok: true, version: { major: ours.major, minor: Math.min(ours.minor, theirs.minor) } };
}

/** The reason text for a frame whose version byte is a major we do not parse at all. */
export function frameVersionReason(me: Role, ours: ProtocolVersion, frameMajor: number): string {
  const peer = me === 'host' ? 'clock' : 'host';
  return `protocol version mismatch: the ${peer} sends frames of protocol ${frameMajor}.x, this ${me} speaks ${formatVersion(ours)}; major versions must be equal`;
}

/** What a Hello must carry before a session can start (errors name the field). */
export function helloError(h: { serialId: string; firmwareVersion: string }): string | null {
  if (h.serialId.trim() === '') return 'hello.serial_id: empty; every clock must say which one it is';
  if (h.firmwareVersion.trim() === '') return 'hello.firmware_version: empty';
  return null;
}

export class VersionMismatchError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'VersionMismatchError';
  }
}

export class HandshakeRefusedError extends Error {
  constructor(readonly reason: string) {
    super(`handshake refused: ${reason}`);
    this.name = 'HandshakeRefusedError';
  }
}
