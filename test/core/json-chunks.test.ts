import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonChunks } from '../../src/core/json-chunks.js';
import { mock } from '../helpers.js';

describe('jsonChunks', () => {
  it('joins to exactly JSON.stringify of any JSON-like value, whatever the piece size', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 64 }), (value, size) => {
        const chunks = [...jsonChunks(value, size)];
        expect(chunks.join('')).toBe(JSON.stringify(value));
        for (const c of chunks.slice(0, -1)) expect(c.length).toBeGreaterThanOrEqual(size);
      }),
      { numRuns: 300 },
    );
  });

  it('writes what JSON.stringify leaves out or turns to null the same way, and values with toJSON as it does', () => {
    const value = { a: undefined, b: () => 1, c: [undefined, () => 2, Symbol('s'), 1], d: new Date(0), e: { toJSON: () => 'x' }, f: { g: [{ h: undefined }] } };
    expect([...jsonChunks(value, 3)].join('')).toBe(JSON.stringify(value));
  });

  it('gives an app\'s whole export in pieces, none of them the whole', async () => {
    const m = mock();
    const text = (await m.call('GET', '/__admin/state?app=demo', { token: null })).text;
    const doc = JSON.parse(text);
    const chunks = [...jsonChunks(doc, 4096)];
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks.join('')).toBe(JSON.stringify(doc));
  });

  it('opens objects member by member down to three levels, and writes anything deeper as one piece', () => {
    // Pieces of one character or more each make a chunk of their own, so the chunks are the pieces.
    expect([...jsonChunks({ a: { b: { c: { d: 1 } } }, e: [] }, 1)]).toEqual(['{', '"a":', '{', '"b":', '{', '"c":', '{"d":1}', '}', '}', ',"e":', '[', ']', '}']);
    expect([...jsonChunks([], 1)]).toEqual(['[', ']']);
    expect([...jsonChunks('', 1)]).toEqual(['""']);
  });

  it('makes chunks of 256 KiB by default', () => {
    const item = 'x'.repeat(100_000);
    // '{"items":[' then quoted items of 100,002 characters with commas: a chunk ends at the first piece past 262,144.
    const chunks = [...jsonChunks({ items: Array.from({ length: 10 }, () => item) })];
    expect(chunks.map((c) => c.length)).toEqual([300_018, 300_009, 300_009, 100_005]);
  });
});

