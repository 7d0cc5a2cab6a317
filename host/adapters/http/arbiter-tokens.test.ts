import { describe, expect, it } from 'vitest';
import { ArbiterTokens, parseTokenOption } from './arbiter-tokens.ts';

describe('ArbiterTokens', () => {
  const tokens = new ArbiterTokens([
    { arbiter: 'Anna', token: 'anna-0123456789abcdef' },
    { arbiter: 'Boris', token: 'boris-0123456789abcdef' },
  ]);

  it('names the arbiter a token belongs to, and no one for a near miss', () => {
    expect(tokens.identify('anna-0123456789abcdef')).toBe('Anna');
    expect(tokens.identify('boris-0123456789abcdef')).toBe('Boris');
    expect(tokens.identify('anna-0123456789abcdeF')).toBeNull();
    expect(tokens.identify('anna-0123456789abcdef ')).toBeNull();
    expect(tokens.identify('')).toBeNull();
  });

  it('reads only a well-formed Bearer header (RFC 6750 §2.1)', () => {
    expect(ArbiterTokens.bearer('Bearer abc')).toBe('abc');
    expect(ArbiterTokens.bearer('bearer abc')).toBe('abc');
    expect(ArbiterTokens.bearer('Basic abc')).toBeNull();
    expect(ArbiterTokens.bearer('Bearer')).toBeNull();
    expect(ArbiterTokens.bearer(undefined)).toBeNull();
  });

  it('refuses short or nameless tokens at start-up', () => {
    expect(() => new ArbiterTokens([{ arbiter: 'Anna', token: 'short' }])).toThrow(/token 1 \(Anna\): token must be at least 16/);
    expect(() => new ArbiterTokens([{ arbiter: '', token: 'x'.repeat(20) }])).toThrow(/missing arbiter name/);
  });

  it('parses --token NAME:SECRET (the secret may hold colons), refusing a missing name or a guessable secret', () => {
    expect(parseTokenOption('Ana Srebrnič:abc:0123456789abcdef')).toEqual({ arbiter: 'Ana Srebrnič', token: 'abc:0123456789abcdef' });
    expect(() => parseTokenOption(':0123456789abcdef')).toThrow('--token: expected NAME:SECRET');
    expect(() => parseTokenOption('Ana-0123456789abcdef', '--token #2')).toThrow('--token #2: expected NAME:SECRET');
    expect(() => parseTokenOption('Ana:short')).toThrow('--token (Ana): the secret must be at least 16 characters');
  });
});
