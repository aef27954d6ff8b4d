import { describe, expect, it } from 'vitest';
import { addressPressure } from '../../../shared/boundaries/address-pressure.ts';
import { BOUNDARY_KEYS, HEADER_BOUNDARY_KEYS, type BoundaryKey } from '../../../shared/boundaries/keys.ts';
import { CENSUS_ROWS } from '../../../shared/boundaries/rows.ts';
import { computeCoverage, type Coverage } from '../../../shared/boundaries/coverage.ts';
import {
  probeBoundaries,
  probeBoundary,
  probesFor,
  projectorFor,
  runCensus,
} from '../../../shared/boundaries/census.ts';
import type { HeaderProbe } from '../../../shared/boundaries/headers/live-probes.ts';
import { accountedCoverage } from './helpers.ts';
import { at } from '../../helpers/elements.ts';

const pressure = addressPressure(['a1f3', '7c20']);
const coverage: Coverage = await accountedCoverage();

/** A projector that returns everything it was given: the classic "forgot to project" regression. */
const leaky = (...args: unknown[]) => args;
/** A projector that redacts too much: no sentinel, but the public fields are gone. */
const empty = () => ({});

describe('census with the real projectors', () => {
  it('proves all 23 boundaries active', async () => {
    const census = await runCensus({ coverage, addressPressure: pressure });
    expect(census.total_boundaries).toBe(23);
    expect(census.active).toBe(23);
    expect(census.unbound_count).toBe(0);
    expect(census.all_bound).toBe(true);
    expect(census.fully_accounted).toBe(true);
    expect(census.boundaries.every((row) => row.status === 'active')).toBe(true);
  });

  it('answers every field of INTERFACE.md in its order', async () => {
    const census = await runCensus({ coverage, addressPressure: pressure });
    expect(Object.keys(census)).toEqual([
      'ok',
      'schema',
      'identity_boundary',
      'total_boundaries',
      'active',
      'unbound_count',
      'all_bound',
      'fully_accounted',
      'coverage',
      'address_pressure',
      'boundaries',
      'principle',
      'wiring_proof',
      'proof',
    ]);
    expect(census.ok).toBe(true);
    expect(census.schema).toBe('civitas.boundary-census.v1');
    expect(census.identity_boundary).toMatch(/synthetic literal/);
    expect(census.identity_boundary).toMatch(/no real actor is read or shown/);
    expect(census.wiring_proof).toContain('test/api/leak-crawler.test.ts');
    expect(census.wiring_proof).toContain('test/api/boundaries/');
    expect(census.wiring_proof).toContain('test/shared/boundaries/');
    expect(census.proof).toEqual({ human: '/boundaries', machine: '/api/boundaries' });
    expect(census.address_pressure).toBe(pressure);
    expect(census.coverage).toBe(coverage);
    expect(census.boundaries.map((row) => row.key)).toEqual([...BOUNDARY_KEYS]);
    for (const row of census.boundaries) {
      expect(Object.keys(row)).toEqual(['key', 'label', 'authority', 'guards', 'closes', 'status']);
      for (const field of ['label', 'authority', 'guards', 'closes'] as const)
        expect(row[field].length, `${row.key}.${field}`).toBeGreaterThan(3);
    }
  });

  it('names every surface INTERFACE.md gives presence_roster, civitas_status among them (issue 19)', () => {
    const row = CENSUS_ROWS.find((r) => r.key === 'presence_roster')!;
    for (const surface of ['/api/presence', 'civitas_presence', 'civitas_status'])
      expect(row.guards, surface).toContain(surface);
  });

  it("names each row's authority after the function that governs it", () => {
    for (const row of CENSUS_ROWS) expect(projectorFor(row.key).name, row.key).toBe(row.authority);
    expect(new Set(CENSUS_ROWS.map((row) => row.authority)).size).toBe(23);
  });

  it('gives every boundary at least one synthetic probe, all deep-frozen', () => {
    for (const key of BOUNDARY_KEYS) {
      const cases = probesFor(key);
      expect(cases.length, key).toBeGreaterThan(0);
      for (const probe of cases) expect(Object.isFrozen(probe.args), `${key}: ${probe.name}`).toBe(true);
    }
  });

  // Cheap by construction, not by the clock (its speed is in `npm run bench`): without header
  // probes a census does no I/O and no timer work, and runs each projector once per probe case.
  it('stays cheap: without header probes it finishes before any I/O turn and calls each projector once per probe', async () => {
    const calls = new Map<BoundaryKey, number>();
    const counted = Object.fromEntries(
      BOUNDARY_KEYS.map((key) => {
        const real = projectorFor(key);
        return [
          key,
          (...args: unknown[]) => {
            calls.set(key, (calls.get(key) ?? 0) + 1);
            return (real as (...a: unknown[]) => unknown)(...args);
          },
        ];
      }),
    );
    const order: string[] = [];
    const census = runCensus({ projectors: counted, coverage, addressPressure: pressure }).then((body) => {
      order.push('census');
      return body;
    });
    // setImmediate runs after the poll phase: anything awaiting I/O or a timer would finish after it.
    await new Promise<void>((resolve) => setImmediate(() => resolve(void order.push('next I/O turn'))));
    expect(order).toEqual(['census', 'next I/O turn']);
    expect((await census).active).toBe(23);
    for (const key of BOUNDARY_KEYS) expect(calls.get(key), key).toBe(probesFor(key).length);
  });
});

describe('census with one projector broken', () => {
  for (const key of BOUNDARY_KEYS) {
    it(`${key}: a leaking or emptied authority turns exactly that row unbound`, async () => {
      for (const broken of [leaky, empty]) {
        const census = await runCensus({
          projectors: { [key]: broken },
          coverage,
          addressPressure: pressure,
        });
        const unbound = census.boundaries.filter((row) => row.status === 'unbound').map((row) => row.key);
        expect(unbound).toEqual([key]);
        expect(census.unbound_count).toBe(1);
        expect(census.active).toBe(22);
        expect(census.all_bound).toBe(false);
      }
    });
  }

  it('recovers on the next call once the override is gone: active is never stored', async () => {
    await runCensus({ projectors: { actor_id: leaky }, coverage, addressPressure: pressure });
    const census = await runCensus({ coverage, addressPressure: pressure });
    expect(census.all_bound).toBe(true);
  });

  it('fails a projector that throws, returns a promise, or leaks a raw id under a harmless key', () => {
    expect(
      probeBoundary('actor_id', () => {
        throw new Error('boom');
      }).ok,
    ).toBe(false);
    expect(
      probeBoundary('actor_id', async () => ({ kind: 'sovereign', ref: 'sovereign:a1f3', display: 'x' })).ok,
    ).toBe(false);
    const truncating = (actor: { actor_id: string }) => ({
      kind: 'sovereign',
      ref: 'sovereign:a1f3',
      display: 'sovereign:a1f3',
      trace: actor.actor_id.slice(9, 18),
    });
    expect(probeBoundary('actor_id', truncating)).toMatchObject({
      ok: false,
      detail: expect.stringContaining('dead-beef'),
    });
  });

  it('fails a projector that mutates the probe literal instead of projecting it', () => {
    const mutating = (actor: Record<string, unknown>) => {
      delete actor.actor_id;
      return actor;
    };
    expect(probeBoundary('actor_id', mutating).ok).toBe(false);
    expect(probeBoundary('actor_id').ok).toBe(true);
  });

  it('fails a held-spam projector that keeps the body under a new name', () => {
    const renaming = (holds: { body: string }[]) => ({
      held: holds.length,
      reasons: [],
      sample: at(holds, 0).body,
    });
    expect(probeBoundary('held_spam', renaming)).toMatchObject({
      ok: false,
      detail: expect.stringContaining('sentinel'),
    });
  });
});

describe('census with live header probes', () => {
  const allPass: HeaderProbe = async (key) => ({ ok: true, detail: `${key} ok` });

  it('is all bound when the app passes every header probe', async () => {
    const census = await runCensus({ headerProbe: allPass, coverage, addressPressure: pressure });
    expect(census.all_bound).toBe(true);
  });

  for (const key of HEADER_BOUNDARY_KEYS) {
    it(`${key}: a failing, throwing or silent live probe unbinds only that row`, async () => {
      const variants: HeaderProbe[] = [
        async (k) => ({ ok: k !== key, detail: 'x' }),
        async (k) => {
          if (k === key) throw new Error('socket');
          return { ok: true, detail: 'ok' };
        },
        (k) => (k === key ? new Promise(() => {}) : Promise.resolve({ ok: true, detail: 'ok' })),
      ];
      for (const headerProbe of variants) {
        const census = await runCensus({
          headerProbe,
          headerProbeTimeoutMs: 20,
          coverage,
          addressPressure: pressure,
        });
        expect(census.boundaries.filter((row) => row.status === 'unbound').map((row) => row.key)).toEqual([
          key,
        ]);
      }
    });
  }

  it('calls the live probe for the five header boundaries only', async () => {
    const asked: BoundaryKey[] = [];
    await probeBoundaries({ headerProbe: async (key) => (asked.push(key), { ok: true, detail: 'ok' }) });
    expect(asked.sort()).toEqual([...HEADER_BOUNDARY_KEYS].sort());
  });

  it('still requires the policy probe when the live probe passes', async () => {
    const census = await runCensus({
      headerProbe: allPass,
      projectors: { navigation_capability: (v: unknown) => v },
      coverage,
      addressPressure: pressure,
    });
    expect(census.boundaries.find((row) => row.key === 'navigation_capability')?.status).toBe('unbound');
  });
});

describe('census accounting', () => {
  it('clears fully_accounted when the coverage is not accounted', async () => {
    const broken = computeCoverage({
      tier1Exports: [{ module: 'm.ts', name: 'stray' }],
      surfaces: [],
      modules: [],
    });
    const census = await runCensus({ coverage: broken, addressPressure: pressure });
    expect(census.fully_accounted).toBe(false);
    expect(census.all_bound).toBe(true);
  });
});
