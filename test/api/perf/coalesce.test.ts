import { describe, expect, it } from 'vitest';
import { coalescer, isSharedAnswer } from '../../../shared/coalesce.ts';
import { serializeAnswer } from '../../../api/plugins/serialize-once.ts';
import { at } from '../../helpers/elements.ts';

/** A run the test finishes by hand, recording when it started. */
function gate() {
  let open!: (value: number) => void;
  const promise = new Promise<number>((resolve) => (open = resolve));
  return { promise, open };
}

/** A run function whose every run the test finishes by hand; `runs` lists the runs begun so far. */
function recordingRuns() {
  const runs: ReturnType<typeof gate>[] = [];
  const run = () => {
    const g = gate();
    runs.push(g);
    return g.promise;
  };
  return { runs, run };
}

describe('coalescer', () => {
  it('never answers a caller with a run that began before it arrived, and shares the next run among waiters', async () => {
    const share = coalescer<string, number>();
    const { runs, run } = recordingRuns();
    const first = share('k', run);
    expect(runs).toHaveLength(1);
    const second = share('k', run);
    const third = share('k', run);
    expect(runs).toHaveLength(1); // both wait for a run that has not started yet
    at(runs, 0).open(1);
    expect(await first).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toHaveLength(2); // the next run starts after the first ended
    at(runs, 1).open(2);
    expect(await second).toBe(2);
    expect(await third).toBe(2);
  });

  it('gathering: an idle run begins on the next check phase, shared by every caller until then, never by a later one', async () => {
    const share = coalescer<string, number>();
    const { runs, run } = recordingRuns();
    const first = share('k', run, true);
    const second = share('k', run, true);
    expect(runs).toHaveLength(0); // not begun: callers that come in the same turn join it
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toHaveLength(1);
    const late = share('k', run, true); // the run has begun: this caller waits for the next one
    at(runs, 0).open(1);
    expect(await first).toBe(1);
    expect(await second).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toHaveLength(2);
    at(runs, 1).open(2);
    expect(await late).toBe(2);
  });

  it('keeps keys apart and starts afresh once idle', async () => {
    const share = coalescer<string, string>();
    let calls = 0;
    const run = (value: string) => async () => {
      calls += 1;
      return value;
    };
    expect(await Promise.all([share('a', run('a')), share('b', run('b'))])).toEqual(['a', 'b']);
    expect(await share('a', run('again'))).toBe('again');
    expect(calls).toBe(3);
  });

  it('passes a failure to the callers of that run only', async () => {
    const share = coalescer<string, number>();
    const failing = share('k', async () => {
      throw new Error('no');
    });
    const after = share('k', async () => 7);
    await expect(failing).rejects.toThrow('no');
    expect(await after).toBe(7);
  });
});

describe('answers serialized once (api/plugins/serialize-once.ts)', () => {
  it('gives every caller of one run the same text, made once, and stringifies anything else afresh', async () => {
    const share = coalescer<string, { n: number; words: string[] }>();
    let stringified = 0;
    const answer = await share('k', async () => ({ n: 1, words: ['kept'] }));
    expect(isSharedAnswer(answer)).toBe(true);
    const realStringify = JSON.stringify;
    JSON.stringify = ((value: unknown, ...rest: []) => {
      stringified += 1;
      return realStringify(value, ...rest);
    }) as typeof JSON.stringify;
    try {
      const texts = Array.from({ length: 5 }, () => serializeAnswer(answer));
      expect(new Set(texts)).toEqual(new Set(['{"n":1,"words":["kept"]}']));
      expect(stringified).toBe(1);
      // An object no run answered is not a shared answer: changed between sends, it is sent as it is now.
      const plain = { n: 1 };
      expect(isSharedAnswer(plain)).toBe(false);
      expect(serializeAnswer(plain)).toBe('{"n":1}');
      plain.n = 2;
      expect(serializeAnswer(plain)).toBe('{"n":2}');
      expect(isSharedAnswer('text')).toBe(false);
    } finally {
      JSON.stringify = realStringify;
    }
  });
});
