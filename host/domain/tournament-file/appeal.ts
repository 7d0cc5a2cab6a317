// The tournament file's event `appeal`: the regulation's appeal window (docs/tournament.md
// "Appeal windows"; the rule itself is host/domain/appeal.ts).

import type { AppealRule } from '../appeal.ts';
import { show, type FieldChecker } from './field-checker.ts';

/** `{ "minutes": 30, "from": "result" | "round-end" }`; null when the event has none. */
export function parseAppeal(c: FieldChecker, raw: unknown, path: string): AppealRule | null {
  if (raw === undefined) return null;
  const a = c.object(raw, path);
  if (!a) return null;
  c.unknownKeys(a, ['minutes', 'from'], path);
  const minutes = c.int(a, 'minutes', path, { min: 1, max: 7 * 24 * 60 });
  const from = c.string(a, 'from', path);
  if (from !== undefined && from !== 'result' && from !== 'round-end')
    c.problem(`${path}.from`, `must be "result" (from the arbiter's decision) or "round-end", got ${show(from)}`);
  else if (minutes !== undefined && from !== undefined) return { minutes, from };
  return null;
}
