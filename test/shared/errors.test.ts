import { describe, expect, it } from 'vitest';
import { ERRORS, Refusal, errorBody } from '../../shared/errors.ts';

describe('error catalog', () => {
  it('keeps ok/reason/hint even when extra tries to override them', () => {
    const body = errorBody('rate_limited', { ok: true, reason: 'x', retry_after: 3 });
    expect(body).toEqual({
      ok: false,
      reason: 'rate_limited',
      hint: ERRORS.rate_limited.hint,
      retry_after: 3,
    });
  });
  it('gives every refusal a 4xx or 5xx status', () => {
    for (const [reason, entry] of Object.entries(ERRORS)) {
      expect(entry.status, reason).toBeGreaterThanOrEqual(400);
      expect(new Refusal(reason as keyof typeof ERRORS).status).toBe(entry.status);
    }
  });
});
