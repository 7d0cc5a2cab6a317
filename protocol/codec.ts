// Envelope <-> protobuf bytes (the payload of one frame; framing is frame-encoder.ts /
// frame-decoder.ts). Decoding returns errors as values and never throws: bytes from a
// serial line are hostile until checked. Encoding refuses (throws) an invalid envelope:
// that is a programming error on our side, and nothing invalid may leave.
import { create, fromBinary, toBinary, type MessageInitShape } from '@bufbuild/protobuf';
import { EnvelopeSchema, type Envelope } from './gen/chessclock_pb.ts';
import { envelopeError } from './envelope-validation.ts';

export { EnvelopeSchema, type Envelope };
export type EnvelopeInit = MessageInitShape<typeof EnvelopeSchema>;
export type EnvelopeBody = Envelope['body'];

export type DecodeResult =
  | { ok: true; envelope: Envelope }
  /** `seq` is set when the bytes parsed but failed validation, so the session can Nack it. */
  | { ok: false; error: string; seq?: number };

export class InvalidEnvelopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidEnvelopeError';
  }
}

/** Builds an Envelope from a plain init object (nested messages may be plain objects too). */
export function envelope(init: EnvelopeInit): Envelope {
  return create(EnvelopeSchema, init);
}

/** Protobuf bytes of a valid envelope. Throws InvalidEnvelopeError naming the bad field. */
export function encodeEnvelope(env: Envelope): Uint8Array {
  const err = envelopeError(env);
  if (err !== null) throw new InvalidEnvelopeError(`cannot encode envelope: ${err}`);
  return toBinary(EnvelopeSchema, env);
}

/**
 * Decodes and validates one payload. Unknown fields and unknown body cases (a newer minor
 * version) are kept and skipped: such an envelope is ok with `body.case === undefined`.
 */
export function decodeEnvelope(bytes: Uint8Array): DecodeResult {
  let env: Envelope;
  try {
    // A copy: protobuf-es keeps views of its input (unknown fields), and a Buffer from a
    // stream may be a slice of a shared pool that must not be pinned or seen as a Buffer.
    env = fromBinary(EnvelopeSchema, new Uint8Array(bytes));
  } catch (e) {
    return { ok: false, error: `undecodable payload: ${e instanceof Error ? e.message : String(e)}` };
  }
  let err: string | null;
  try {
    err = envelopeError(env);
  } catch (e) {
    // Validation has no reason to throw; if it ever does, the frame is still only dropped.
    err = `validation failed: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (err !== null) return { ok: false, error: `invalid envelope: ${err}`, seq: env.seq };
  return { ok: true, envelope: env };
}
