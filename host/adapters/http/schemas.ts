// The JSON schemas more than one route family shares (docs/api.md "Conventions"). Their words
// are the rule book's vocabulary (rules/vocabulary.ts), never a copy.
import type { FastifyRequest } from 'fastify';
import { GAME_RESULTS } from '../../../rules/vocabulary.ts';

export const BOARD_ID = { type: 'string', pattern: '^[A-Za-z0-9._~-]{1,64}$' } as const;
export const BOARD_PARAMS = { type: 'object', required: ['id'], properties: { id: BOARD_ID } } as const;
export const RESULT = { type: 'string', enum: GAME_RESULTS } as const;
/** An event's name in a path (free text: spaces and slashes, URL-encoded). */
export const EVENT_NAME = { type: 'string', minLength: 1, maxLength: 200 } as const;
export const EVENT_PARAMS = { type: 'object', required: ['event'], properties: { event: EVENT_NAME } } as const;
/** A round of an event in a path. */
export const ROUND_PARAMS = {
  type: 'object',
  required: ['event', 'round'],
  properties: { event: EVENT_NAME, round: { type: 'integer', minimum: 1 } },
} as const;

/** Why an arbiter changes a result: free text, journaled with the correction. */
export const REASON = { type: 'string', minLength: 1, maxLength: 500 } as const;
/** Why an arbiter decides as they do where a blank reason is no reason (left out: see reasonOf). */
export const OPTIONAL_REASON = { type: 'string', maxLength: 500 } as const;

/** `reason` as a command field: absent when blank (a blank reason is no reason). */
export function reasonOf(reason: string | undefined): { reason?: string } {
  const text = reason?.trim();
  return text ? { reason: text } : {};
}

/**
 * The route option of a write whose body may be left out (the dashboard's Confirm sends none):
 * no body, or JSON `null`, is read as `{}` before the body's schema checks it, so a schema still
 * refuses every field it does not name and every value of a wrong type.
 */
export async function noBodyIsEmpty(req: FastifyRequest): Promise<void> {
  if (req.body === undefined || req.body === null) req.body = {};
}
