// The tournament file's event `timeControl`: a preset's name, or an object read by the one
// time-control reader (protocol/time-control.ts), as the API and the replay read theirs.

import {
  isPresetName,
  readTimeControlSpec,
  TIME_CONTROL_SPEC_FIELDS,
  TimeControlError,
  type PresetName,
  type TimeControl,
} from '../../../protocol/time-control.ts';
import { show, type FieldChecker } from './field-checker.ts';

/** `"classical"` (a preset), or `{ preset | timeControl | white+black, defaultTime?, incrementTiming? }`. */
export function parseEventTimeControl(c: FieldChecker, raw: unknown, path: string): { value: TimeControl; preset: PresetName | null } | undefined {
  if (raw === undefined) return c.problem(path, 'missing');
  try {
    // The file's own rule: a bare string names a preset; other controls are written as an object.
    if (typeof raw === 'string' && !isPresetName(raw)) return c.problem(path, `unknown preset ${show(raw)}; use an object for other controls`);
    if (typeof raw !== 'string') {
      const o = c.object(raw, path);
      if (!o) return undefined;
      c.unknownKeys(o, TIME_CONTROL_SPEC_FIELDS, path);
    }
    const read = readTimeControlSpec(raw);
    return { value: read.timeControl, preset: read.preset };
  } catch (err) {
    // The bad token named (docs/architecture.md rule 10).
    if (err instanceof TimeControlError) return c.problem(path, err.message);
    throw err;
  }
}
