// A schema violation as one sentence naming the field (api-error.ts, docs/api.md "Conventions").
import { describe, expect, it } from 'vitest';
import { apiError, describeValidation, type AjvError } from './api-error.ts';

const err = (e: Partial<AjvError> & Pick<AjvError, 'keyword'>): AjvError => ({ instancePath: '', schemaPath: '#', params: {}, ...e });

describe('describeValidation', () => {
  it('a body value of the wrong type says what came instead; a query value (text, no data kept) does not', () => {
    expect(describeValidation('body', [err({ keyword: 'type', instancePath: '/moves', params: { type: 'integer' }, data: null })])).toEqual({
      field: 'moves',
      message: 'body: "moves" must be integer, got null',
    });
    expect(describeValidation('body', [err({ keyword: 'type', instancePath: '/ms', params: { type: 'integer' }, data: '60000' })]).message).toBe(
      'body: "ms" must be integer, got "60000" (string)',
    );
    expect(describeValidation('body', [err({ keyword: 'type', params: { type: 'object' }, data: [1] })])).toEqual({
      field: '',
      message: 'body: must be object, got array',
    });
    expect(describeValidation('querystring', [err({ keyword: 'type', instancePath: '/round', params: { type: 'integer' } })]).message).toBe(
      'querystring: "round" must be integer',
    );
  });

  it('names a nested field by its dotted path, a missing or unknown one by its name', () => {
    expect(describeValidation('body', [err({ keyword: 'required', instancePath: '/white', params: { missingProperty: 'name' } })])).toEqual({
      field: 'white.name',
      message: 'body: missing required field "white.name"',
    });
    expect(describeValidation('body', [err({ keyword: 'additionalProperties', params: { additionalProperty: 'sid' } })])).toEqual({
      field: 'sid',
      message: 'body: unknown field "sid"',
    });
  });

  it("a oneOf: the branch of the value's own type names what is wrong inside it; a value of neither type names both", () => {
    const oneOf = err({ keyword: 'oneOf', instancePath: '/timeControl', schemaPath: '#/properties/timeControl/oneOf' });
    const notString = err({
      keyword: 'type',
      instancePath: '/timeControl',
      schemaPath: '#/properties/timeControl/oneOf/0/type',
      params: { type: 'string' },
      data: 5400,
    });
    const notObject = err({
      keyword: 'type',
      instancePath: '/timeControl',
      schemaPath: '#/properties/timeControl/oneOf/1/type',
      params: { type: 'object' },
      data: 5400,
    });
    expect(describeValidation('body', [notString, notObject, oneOf]).message).toBe('body: "timeControl" must be string or object, got 5400 (integer)');
    const noBlack = err({
      keyword: 'required',
      instancePath: '/timeControl',
      schemaPath: '#/properties/timeControl/oneOf/1/required',
      params: { missingProperty: 'black' },
    });
    expect(describeValidation('body', [notString, noBlack, oneOf])).toEqual({
      field: 'timeControl.black',
      message: 'body: missing required field "timeControl.black"',
    });
  });

  it('the error body leaves out an empty field', () => {
    expect(apiError(400, 'body: must be object, got array', '')).toEqual({ statusCode: 400, error: 'Bad Request', message: 'body: must be object, got array' });
  });
});
