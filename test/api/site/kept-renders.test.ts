import { describe, expect, it } from 'vitest';
import { KeptRenders, readRendersFrom, type RenderedPage } from '../../../api/site/kept-renders.ts';

const page = (fromRecord: boolean, keepForMs?: number): RenderedPage => ({
  request: {} as RenderedPage['request'],
  matched: true,
  status: 200,
  headers: {},
  body: Buffer.from('<p>page</p>'),
  fromRecord,
  keepForMs,
  revision: 7,
});

describe('what a page says it read (x-civitas-renders-from)', () => {
  it('reads the Record alone, the Record with live figures for some seconds, or neither; never sends it on', () => {
    const alone: Record<string, string> = { 'x-civitas-renders-from': 'record' };
    expect(readRendersFrom(alone)).toEqual({ fromRecord: true });
    expect(alone).toEqual({});
    expect(readRendersFrom({ 'x-civitas-renders-from': 'record; max-age=15' })).toEqual({
      fromRecord: true,
      keepForMs: 15_000,
    });
    expect(readRendersFrom({ 'x-civitas-renders-from': 'orders' })).toEqual({ fromRecord: false });
    expect(readRendersFrom({})).toEqual({ fromRecord: false });
  });
});

describe('a kept render with live figures', () => {
  it('is sent again at the same revision only while younger than its max-age', () => {
    const kept = new KeptRenders();
    const live = page(true, 15_000);
    kept.offer('/', live);
    expect(kept.at('/', 7)).toBe(live);
    expect(kept.at('/', 8)).toBeUndefined();
    live.keptAt = performance.now() - 16_000; // older than its 15 seconds: render again
    expect(kept.at('/', 7)).toBeUndefined();
    const record = page(true);
    kept.offer('/imprint', record);
    record.keptAt = performance.now() - 3_600_000; // the Record alone: kept while the revision stands
    expect(kept.at('/imprint', 7)).toBe(record);
  });
});
