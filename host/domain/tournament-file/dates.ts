// The tournament file's dates against each other, as an arbiter reads a schedule
// (docs/tournament.md "Dates"): each round within the event's dates, a round's start on its
// date, and the rounds in order. Each mistake is said once: several rounds outside the event's
// dates on one side point at that event date, and a round reported outside is not compared
// with the next.

import type { FieldChecker } from './field-checker.ts';

/** An event's first and last day (YYYY/MM/DD, null when the file leaves one out), and the event's path. */
export interface EventDates {
  startDate: string | null;
  endDate: string | null;
  path: string;
}

/** A round's `date` (YYYY/MM/DD) and `start` (as written, and in UTC ms), each null when absent or refused. */
export interface RoundWhen {
  path: string;
  date: string | null;
  start: { text: string; ms: number } | null;
}

interface RoundDay {
  r: RoundWhen;
  /** Its `date`, else the day of its `start`. */
  day: string | null;
  field: 'date' | 'start';
  startOffDay: boolean;
  /** Outside the event's dates: before its startDate or after its endDate. */
  side: 'before' | 'after' | null;
}

/**
 * The rounds' days against the event's and against each other: each round is played within the
 * event's dates, on the day its start names, and the rounds come in order (a round's day not
 * before the previous round's, its start after the previous round's start; two rounds on one
 * day are usual in a rapid or a weekend open).
 */
export function checkRoundDates(c: FieldChecker, rounds: readonly RoundWhen[], event: EventDates): void {
  const { startDate, endDate } = event;
  const days: RoundDay[] = rounds.map((r) => {
    // A start's own day: the date in its text, in the hall's offset as written.
    const startDay = r.start ? r.start.text.slice(0, 10).replaceAll('-', '/') : null;
    const startOffDay = r.date !== null && startDay !== null && startDay !== r.date;
    if (startOffDay) c.problem(`${r.path}.start`, `${r.start!.text} is not on the round's date ${r.date}`);
    const day = r.date ?? startDay;
    const side = day === null ? null : startDate !== null && day < startDate ? 'before' : endDate !== null && day > endDate ? 'after' : null;
    return { r, day, field: r.date !== null ? 'date' : 'start', startOffDay, side };
  });
  for (const side of ['before', 'after'] as const)
    reportOutside(
      c,
      event,
      side,
      days.filter((d) => d.side === side),
    );
  let lastDay: { day: string; path: string } | null = null;
  let lastStart: { text: string; ms: number; path: string } | null = null;
  for (const { r, day, field, startOffDay, side } of days) {
    // A round outside the event's dates (reported) is not compared with the next round too:
    // one mistyped date would otherwise put the next round "out of order" as well.
    if (day === null || side !== null) continue;
    if (lastDay !== null && day < lastDay.day) {
      c.problem(`${r.path}.${field}`, `${day} is before ${lastDay.day}, the day of the round before (${lastDay.path}); rounds are played in order`);
      continue;
    }
    lastDay = { day, path: r.path };
    if (r.start === null || startOffDay) continue;
    if (lastStart !== null && r.start.ms <= lastStart.ms)
      c.problem(
        `${r.path}.start`,
        `${r.start.text} is not after ${lastStart.text}, the start of the round before (${lastStart.path}); rounds are played in order`,
      );
    else lastStart = { ...r.start, path: r.path };
  }
}

/** Rounds before the startDate (or after the endDate): one at its round, several once at the event's date. */
function reportOutside(c: FieldChecker, event: EventDates, side: 'before' | 'after', outside: readonly RoundDay[]): void {
  const [field, date] = side === 'before' ? ['startDate', event.startDate] : ['endDate', event.endDate];
  if (outside.length === 1) {
    const { r, day, field: roundField } = outside[0];
    c.problem(`${r.path}.${roundField}`, `${day} is ${side} the event's ${field} ${date} (${event.path}.${field})`);
  } else if (outside.length > 1) {
    const list = outside.map(({ r, day }) => `${r.path.slice(event.path.length + 1)} on ${day}`).join(', ');
    c.problem(`${event.path}.${field}`, `${date}: ${outside.length} rounds are ${side} it (${list}); is the ${field} right?`);
  }
}
