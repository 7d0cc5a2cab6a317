// The session layer's public face for the other rooms (firmware-ts/, host/, simulator/,
// test/): import from here rather than from the individual files.
export { createLink, Link } from './link.ts';
export { LinkClosedError, NackError, AUTO_SYNC_DEFAULTS } from './link-types.ts';
export type { Body, BodyInit, ReceivedMessage, ClockIdentity, LinkOptions, LinkState, LinkCounters, AutoSyncOptions } from './link-types.ts';
export { openSerialLink, SerialOpenError, DEFAULT_BAUD_RATE, type SerialLink } from './session-serial.ts';
export { openPtyPair, ptySkipReason, socatAvailable, SocatMissingError, type PtyPair } from './pty.ts';
export { TimeSyncEstimator, clockToUtcMs, hostToUtcMs, sampleDelayMs, sampleOffsetMs } from './time-sync.ts';
export type { SyncSample, SyncEstimate, TimeSyncOptions, UtcReference } from './time-sync.ts';
export { Outbox, FileOutboxStore, MemoryOutboxStore, OutboxFullError, type OutboxStore, type OutboxSnapshot } from './outbox.ts';
export { SessionTimeoutError, SESSION_DEFAULTS, type SessionOptions } from './session.ts';
export { VersionMismatchError, HandshakeRefusedError, OUR_VERSION, negotiate } from './handshake.ts';
export { systemTime, monotonicNowMs, type TimeSource, type TimerHandle } from './monotonic.ts';
