import { describe, expect, it } from 'vitest';
import { evaluateProbe } from '../../../shared/boundaries/probe-check.ts';
import { SENTINEL, findForbiddenKeys, findSentinelLeaks } from '../../../shared/boundaries/sentinels.ts';

describe('sentinel detection', () => {
  it('finds a sentinel nested deep in arrays and objects', () => {
    const output = { a: [{ b: { c: [1, 2, { d: `quoted: ${SENTINEL.spam_body}` }] } }] };
    expect(findSentinelLeaks(output)).toEqual(['sentinel']);
  });

  it('finds a raw id used as an object key, and fragments of it', () => {
    expect(findSentinelLeaks({ scores: { [SENTINEL.raw_id]: 1 } })).toContain('dead-beef');
    expect(findSentinelLeaks({ short: 'deadbeef' })).toEqual(['deadbeef']);
    expect(findSentinelLeaks({ upper: 'SeNtInEl' })).toEqual(['sentinel']);
  });

  it('passes clean output, null and undefined', () => {
    expect(findSentinelLeaks({ ref: 'sovereign:a1f3', n: 5, list: ['x'] })).toEqual([]);
    expect(findSentinelLeaks(null)).toEqual([]);
    expect(findSentinelLeaks(undefined)).toEqual([]);
  });

  it('treats output that cannot be serialised as a leak', () => {
    expect(findSentinelLeaks({ n: 1n })).toEqual(['<not serialisable>']);
  });

  it('finds forbidden field names at any depth even with harmless values', () => {
    expect(findForbiddenKeys({ rows: [{ ok: 1, nested: { actor_id: null } }] })).toEqual(['actor_id']);
    expect(findForbiddenKeys({ body: 'x' }, ['body'])).toEqual(['body']);
    expect(findForbiddenKeys({ body: 'x' })).toEqual([]);
  });

  it('holds every sentinel value to at least one mark', () => {
    for (const [name, value] of Object.entries(SENTINEL))
      expect(findSentinelLeaks(value), name).not.toEqual([]);
  });
});

describe('probe evaluation', () => {
  const probe = {
    name: 'p',
    args: [{ id: 'x', secret: SENTINEL.secret }],
    keeps: [{ path: 'view.id', equals: 'x' }, { path: 'view.list.0' }],
  };

  it('passes when sentinels are gone and public fields are kept', () => {
    expect(evaluateProbe((r: { id: string }) => ({ view: { id: r.id, list: ['a'] } }), probe).ok).toBe(true);
  });

  it('fails on a nested leak', () => {
    const result = evaluateProbe(
      (r: { id: string; secret: string }) => ({ view: { id: r.id, list: [{ deep: [r.secret] }] } }),
      probe,
    );
    expect(result).toMatchObject({ ok: false, detail: expect.stringContaining('sentinel leaked') });
  });

  it('fails when a public field is missing or wrong', () => {
    expect(evaluateProbe(() => ({ view: { id: 'x' } }), probe).detail).toMatch(/view\.list\.0 missing/);
    expect(evaluateProbe(() => ({ view: { id: 'y', list: ['a'] } }), probe).detail).toMatch(
      /not the expected value/,
    );
    expect(evaluateProbe(() => undefined, probe).ok).toBe(false);
  });
});
