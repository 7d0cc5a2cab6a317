// The rule book as the dashboard's browser loads it: esbuild bundles this entry when the server
// starts (rule-book-bundle.ts) and the API serves it at /rule-book.js; app.js imports from
// there and keeps no copy of any rule (issue 11, one rule book: the same modules the firmware
// and the host run). Re-export here what the page needs, nothing else: the bundle carries
// only what these exports reach.

// What the clock shows (FIDE equipment standard: rounded up to the shown unit).
export { formatClockTime, msUntilDisplayChange } from '../../../../rules/display-format.ts';
// The words: sides, results (forfeit codes included), clock statuses, the arbiter's commands.
export {
  ARBITER_COMMAND_MEANING,
  CLOCK_COMMANDS,
  CLOCK_STATUSES,
  CLOCK_STATUS_MEANING,
  FORFEIT_RESULTS,
  GAME_RESULTS,
  RESULT_MEANING,
  SIDE_NAME,
  SIDES,
  other,
} from '../../../../rules/vocabulary.ts';
// The running side's time between two reports (delays and sandclock included).
export { basisDefaultTimeLeftMs, basisRemainingMs } from '../../../../rules/clock-snapshot.ts';
// Which command each status accepts, with the reason the host would give.
export { boardCommandRefusal, clockCommandRefusal, commandPlace, commandStatus } from '../../../../rules/command-rules.ts';
