/**
 * The scale bench's sampling of one route (scripts/bench/scale/measure.ts): every request may take
 * the whole route budget, and only a request that took longer counts as cut off.
 */
import { describe, expect, it } from 'vitest';
import { timeRoute, type Requester } from '../../../scripts/bench/scale/measure.ts';

const target = { path: '/api/x', url: '/api/x', accept: 'application/json' };
const budget = { samples: 5, ms: 60_000, loadSeconds: 0 };

describe('the scale bench timing a route', () => {
  it('gives every request the whole budget, never what is left of it', async () => {
    const given: number[] = [];
    const request: Requester = async (_base, _target, timeoutMs) => {
      given.push(timeoutMs);
      return { status: 200 };
    };
    const timing = await timeRoute('http://x', target, budget, request);
    expect(timing).toMatchObject({ samples: 5, status: 200, cutOff: false });
    expect(given).toEqual(Array(6).fill(60_000)); // the warm-up and five samples
  });

  it('counts a request that ran out of the budget as the whole budget, and stops', async () => {
    let n = 0;
    const request: Requester = async () => ({ status: ++n <= 3 ? 200 : 0 });
    const timing = await timeRoute('http://x', target, budget, request);
    expect(timing).toMatchObject({ samples: 3, cutOff: true, p99: 60_000 });
  });
});
