// The MQTT topic scheme (docs/mqtt.md):
//
//   chessclock/v1/<event>/<round>/<board>/events   QoS 1, one message per clock event
//   chessclock/v1/<event>/<round>/<board>/state    QoS 1, retained: the board's live state
//   chessclock/v1/<event>/<round>/<board>/result   QoS 1, retained: the game's result
//
// Event names are free text ("Slovenian Championship 2025/26 - Final"), so each
// segment is escaped. MQTT 3.1.1 §4.7 gives '/' (level separator), '+' and '#'
// (wildcards) special meaning, forbids U+0000 and reserves a leading '$'; spaces and
// control characters are legal but break shell quoting and log lines. We percent-encode
// (UTF-8 bytes, upper-case hex, as RFC 3986 §2.1) exactly these: '%' itself, '/', '+',
// '#', '$', space, and C0/C1 controls. Everything else (letters of any script, digits,
// punctuation) stays readable. Decoding is `decodeURIComponent`.

export const TOPIC_ROOT = 'chessclock/v1';

export type TopicKind = 'events' | 'state' | 'result';
const KINDS: readonly string[] = ['events', 'state', 'result'];

/** Characters escaped in a topic segment (see header). */
const ESCAPED = /[%/+#$ \u0000-\u001f\u007f-\u009f]/gu;

export class TopicError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TopicError';
  }
}

function percentEncode(ch: string): string {
  return Array.from(new TextEncoder().encode(ch), (b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join('');
}

/** Escapes one topic segment; throws on an empty segment (MQTT would read it as a missing level). */
export function encodeSegment(text: string, what = 'segment'): string {
  if (text.length === 0) throw new TopicError(`empty ${what}: a topic level must not be empty`);
  return text.replace(ESCAPED, percentEncode);
}

export function decodeSegment(segment: string, what = 'segment'): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new TopicError(`bad escape in topic ${what} "${segment}"`);
  }
}

export interface BoardAddress {
  readonly event: string;
  readonly round: number;
  readonly board: number;
}

function checkNumber(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new TopicError(`${what} must be a whole number ≥ 0, got ${n}`);
}

export function boardTopic(addr: BoardAddress, kind: TopicKind): string {
  checkNumber(addr.round, 'round');
  checkNumber(addr.board, 'board');
  return `${TOPIC_ROOT}/${encodeSegment(addr.event, 'event')}/${addr.round}/${addr.board}/${kind}`;
}

export const eventsTopic = (addr: BoardAddress): string => boardTopic(addr, 'events');
export const stateTopic = (addr: BoardAddress): string => boardTopic(addr, 'state');
export const resultTopic = (addr: BoardAddress): string => boardTopic(addr, 'result');

/** A subscription filter: `undefined` parts become the '+' wildcard. */
export function topicFilter(kind: TopicKind, addr: Partial<BoardAddress> = {}): string {
  const ev = addr.event === undefined ? '+' : encodeSegment(addr.event, 'event');
  const round = addr.round === undefined ? '+' : String(addr.round);
  const board = addr.board === undefined ? '+' : String(addr.board);
  return `${TOPIC_ROOT}/${ev}/${round}/${board}/${kind}`;
}

const NUMBER = /^(0|[1-9][0-9]*)$/;

/** Parses a topic of the scheme back into its address and kind; throws TopicError naming the bad level. */
export function parseBoardTopic(topic: string): BoardAddress & { kind: TopicKind } {
  const levels = topic.split('/');
  const root = TOPIC_ROOT.split('/');
  if (levels.length !== root.length + 4 || root.some((r, i) => levels[i] !== r)) {
    throw new TopicError(`topic "${topic}" is not ${TOPIC_ROOT}/<event>/<round>/<board>/<events|state|result>`);
  }
  const [ev, round, board, kind] = levels.slice(root.length) as [string, string, string, string];
  if (!NUMBER.test(round)) throw new TopicError(`bad round "${round}" in topic "${topic}"`);
  if (!NUMBER.test(board)) throw new TopicError(`bad board "${board}" in topic "${topic}"`);
  if (!KINDS.includes(kind)) throw new TopicError(`bad kind "${kind}" in topic "${topic}"`);
  return { event: decodeSegment(ev, 'event'), round: Number(round), board: Number(board), kind: kind as TopicKind };
}
