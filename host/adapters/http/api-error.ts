// The API's error body (docs/api.md "Conventions"): the status, its name, what is wrong and,
// for a bad request, the field it is wrong in. A schema violation (Fastify's validator, Ajv)
// becomes one sentence naming the field: the first violation, by its dotted path.

export interface ApiError {
  statusCode: number;
  error: string;
  message: string;
  field?: string;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

export function apiError(statusCode: number, message: string, field?: string): ApiError {
  return { statusCode, error: STATUS_TEXT[statusCode] ?? 'Error', message, ...(field ? { field } : {}) };
}

/** One Ajv error; `data` and `schema` are there when the validator runs `verbose` (bodies: server.ts). */
export interface AjvError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  message?: string;
  params: Record<string, unknown>;
  data?: unknown;
  schema?: unknown;
}

/** A value's JSON type (RFC 8259), `integer` for a whole number as JSON Schema counts it. */
function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** `got null`, `got "60000" (string)`: what a body sent in place of the type asked for (docs/api.md "Types are strict"). */
function got(e: AjvError, path: string): string {
  if (!('data' in e)) return '';
  if (path === '') return `, got ${jsonType(e.data)}`;
  return e.data === null ? ', got null' : `, got ${JSON.stringify(e.data)} (${jsonType(e.data)})`;
}

/**
 * The error to describe of a `oneOf` (a control: a string or `{ white, black }`): the branch of
 * the value's own type names what is wrong inside it; a value of neither type is a type error
 * naming both.
 */
function oneOfCause(errors: readonly AjvError[]): AjvError {
  const first = errors[0];
  const oneOf = errors.find((e) => e.keyword === 'oneOf' && first.schemaPath.startsWith(`${e.schemaPath}/`));
  if (!oneOf) return first;
  const branches = errors.filter((e) => e !== oneOf && e.schemaPath.startsWith(`${oneOf.schemaPath}/`));
  const inside = branches.find((e) => e.keyword !== 'type' || e.instancePath !== oneOf.instancePath);
  if (inside) return inside;
  const types = branches.map((e) => String(e.params.type));
  return { ...first, params: { type: types }, message: `must be ${types.join(' or ')}` };
}

const dotted = (instancePath: string) => instancePath.replace(/^\//, '').replace(/\//g, '.');

/** Turns the first schema violation into a sentence naming the field (`context`: body, querystring, params). */
export function describeValidation(context: string, errors: readonly AjvError[]): { message: string; field: string } {
  const e = oneOfCause(errors);
  const path = dotted(e.instancePath);
  switch (e.keyword) {
    case 'required': {
      const field = [path, String(e.params.missingProperty)].filter(Boolean).join('.');
      return { field, message: `${context}: missing required field "${field}"` };
    }
    case 'additionalProperties': {
      const field = [path, String(e.params.additionalProperty)].filter(Boolean).join('.');
      return { field, message: `${context}: unknown field "${field}"` };
    }
    case 'enum':
      return { field: path, message: `${context}: "${path}" must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    case 'type': {
      const type = e.params.type;
      const expected = Array.isArray(type) ? type.join(' or ') : String(type).split(',').join(' or ');
      return { field: path, message: `${context}: ${path ? `"${path}" ` : ''}must be ${expected}${got(e, path)}` };
    }
    default:
      return { field: path, message: `${context}: ${path ? `"${path}" ` : ''}${e.message ?? 'is invalid'}` };
  }
}
