// The layout of one frame (docs/protocol.md, "Framing"):
//
//   END | version | envelope (protobuf) | CRC-16 hi | CRC-16 lo | END      (then SLIP-escaped)
//
// RFC 1055 SLIP delimits frames with END (0xC0) and escapes END/ESC inside them; a frame
// also *starts* with END, as RFC 1055 recommends, so line noise before it is flushed as a
// separate (dropped) frame instead of corrupting it. The version byte is the protocol's
// MAJOR version: a receiver never parses a payload of a major it does not speak.

export const PROTOCOL_MAJOR = 1;
/**
 * Minor versions only add fields and message types (chessclock.proto header): 1.1 the arbiter's
 * powers, 1.2 the restore, 1.3 selective acks, 1.4 the arbiter's corrections (side on move,
 * control, quickplay delay, a take-back keeping the times, the double forfeit) (docs/protocol.md, "Versions").
 */
export const PROTOCOL_MINOR = 4;

/** RFC 1055 special bytes. */
export const SLIP_END = 0xc0;
export const SLIP_ESC = 0xdb;
export const SLIP_ESC_END = 0xdc;
export const SLIP_ESC_ESC = 0xdd;

/**
 * Largest frame content (version + envelope + CRC), before SLIP escaping. A clock's receive
 * buffer is this big; longer frames are dropped and counted as oversized. The host must keep
 * Configure labels short enough to fit (encodeFrame refuses larger frames).
 */
export const MAX_FRAME_BYTES = 512;

/** version byte + CRC: a frame shorter than this cannot be one. */
export const FRAME_OVERHEAD_BYTES = 3;
