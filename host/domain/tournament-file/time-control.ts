// The tournament file's event `timeControl`: a preset's name, or an object read by the one
// time-control reader (protocol/time-control.ts), as the API and the replay read theirs.

import {
  isPresetName,
  PRESETS,
  readTimeControlSpec,
  TIME_CONTROL_SPEC_FIELDS,
  TimeControlError,
  type PresetName,
  type TimeControl,
} from '../../../protocol/time-control.ts';
import { didYouMean, show, type FieldChecker } from './field-checker.ts';

const PRESET_NAMES = Object.keys(PRESETS);

/** `"classical"` (a preset), or `{ preset | timeControl | white+black, defaultTime?, incrementTiming? }`. */
export function parseEventTimeControl(c: FieldChecker, raw: unknown, path: string): { value: TimeControl; preset: PresetName | null } | undefined {
  if (raw === undefined) return c.problem(path, 'missing');
  let unknown: string[] = [];
  try {
    // The file's own rule: a bare string names a preset; other controls are written as an object.
    if (typeof raw === 'string' && !isPresetName(raw))
      return c.problem(
        path,
        `unknown preset ${show(raw)}${didYouMean(raw, PRESET_NAMES)}; the presets are: ${PRESET_NAMES.join(', ')}; use an object for other controls`,
      );
    if (typeof raw !== 'string') {
      const o = c.object(raw, path);
      if (!o) return undefined;
      unknown = Object.keys(o).filter((k) => !(TIME_CONTROL_SPEC_FIELDS as readonly string[]).includes(k));
      c.unknownKeys(o, TIME_CONTROL_SPEC_FIELDS, path);
    }
    const read = readTimeControlSpec(raw);
    return { value: read.timeControl, preset: read.preset };
  } catch (err) {
    if (!(err instanceof TimeControlError)) throw err;
    // A field the reader misses when the object holds one it does not know ("blak" for "black"):
    // the misspelt field is the one mistake, reported above; its absence is not said again.
    const token = err.token ?? '';
    const o = raw as Record<string, unknown>;
    if (unknown.length && (TIME_CONTROL_SPEC_FIELDS as readonly string[]).includes(token) && o[token] === undefined) return undefined;
    // The bad token named (docs/architecture.md rule 10); a misspelt preset with the likely one.
    const hint = /^unknown preset/.test(err.message) ? didYouMean(token, PRESET_NAMES) : '';
    return c.problem(path, hint ? err.message.replace(`"${token}"`, `"${token}"${hint}`) : err.message);
  }
}
