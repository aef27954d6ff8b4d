/**
 * Regression proof in the running app: break one projector at a time (all 23) and watch exactly
 * that row turn unbound, unbound_count rise and all_bound clear; then watch the next request
 * recover (active is never stored). The live side is broken too: a response that loses its
 * headers turns the header rows unbound even though their policy functions still pass.
 *
 * POST /theme (the door two header probes use) belongs to the identity family. Until it is built,
 * this file adds a stand-in with the door's contract (same-origin only, local return_to or 400,
 * sets the theme cookie) so the baseline here is 23 active; once the real door exists, it is used.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BOUNDARY_KEYS, HEADER_BOUNDARY_KEYS } from '../../../shared/boundaries/keys.ts';
import { runCensus } from '../../../shared/boundaries/census.ts';
import { headerProbeFromInject } from '../../../shared/boundaries/headers/live-probes.ts';
import { liveCensus, censusCoverage } from '../../../api/boundaries/census.ts';
import { censusHost, probeInject } from '../../../api/boundaries/live-probes.ts';
import { livePressure } from '../../../api/boundaries/pressure.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

vi.mock('../../../api/families.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../api/families.ts')>();
  if (original.IMPLEMENTED_ROUTES.some((route) => route.key === 'POST /theme')) return original;
  const { defineRoute } = await import('../../../api/route.ts');
  const { Refusal } = await import('../../../shared/errors.ts');
  const { safeReturnTarget } = await import('../../../shared/security.ts');
  const themeDoor = defineRoute('POST /theme', {
    async handler(request, reply) {
      const form = (request.body ?? {}) as Record<string, string>;
      const target = safeReturnTarget(form.return_to ?? '/');
      if (target === null) throw new Refusal('off_origin_target');
      reply.setCookie('civitas_theme', form.theme === 'dark' ? 'dark' : 'light', {
        path: '/',
        sameSite: 'lax',
        httpOnly: true,
      });
      return reply.code(303).header('location', target).send();
    },
  });
  return { ...original, IMPLEMENTED_ROUTES: [...original.IMPLEMENTED_ROUTES, themeDoor] };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** The classic regression: a projector that forgets to project and returns what it was given. */
const leaky = (...args: unknown[]) => args;
/** The other one: a projector that redacts everything, public fields included. */
const emptied = () => ({});

describe('the running app with all 23 boundaries in place', () => {
  it('reports 23 active, all bound, fully accounted', async () => {
    const body = (await t.app.inject({ method: 'GET', url: '/api/boundaries' })).json();
    expect(body.boundaries.filter((row: { status: string }) => row.status !== 'active')).toEqual([]);
    expect(body).toMatchObject({
      total_boundaries: 23,
      active: 23,
      unbound_count: 0,
      all_bound: true,
      fully_accounted: true,
    });
  });
});

describe('breaking one projector at a time', () => {
  for (const key of BOUNDARY_KEYS) {
    it(`${key}: its row turns unbound, unbound_count rises, all_bound clears; the next request recovers`, async () => {
      for (const broken of [leaky, emptied]) {
        const census = await liveCensus(t.app.civitas, censusHost(t.app), { projectors: { [key]: broken } });
        const unbound = census.boundaries.filter((row) => row.status === 'unbound').map((row) => row.key);
        expect(unbound).toEqual([key]);
        expect(census.unbound_count).toBe(1);
        expect(census.active).toBe(22);
        expect(census.all_bound).toBe(false);
      }
      const healed = (await t.app.inject({ method: 'GET', url: '/api/boundaries' })).json();
      expect(healed.all_bound).toBe(true);
    });
  }
});

describe('breaking the live side', () => {
  const census = async (inject: Parameters<typeof headerProbeFromInject>[0]) =>
    runCensus({
      headerProbe: headerProbeFromInject(inject, t.app.civitas.config.origin),
      coverage: await censusCoverage(censusHost(t.app)),
      addressPressure: await livePressure(t.app.civitas.db),
    });

  it('turns the cache rows unbound when responses lose Cache-Control, though the policy functions still pass', async () => {
    const real = probeInject(t.app);
    const body = await census(async (request) => {
      const response = await real(request);
      const { 'cache-control': _dropped, ...headers } = response.headers;
      return { ...response, headers };
    });
    const unbound = body.boundaries.filter((row) => row.status === 'unbound').map((row) => row.key);
    expect(unbound).toEqual(['shared_cache_audience', 'set_cookie_replay']);
  });

  it('turns request_provenance unbound when a forged request is let through', async () => {
    const real = probeInject(t.app);
    const body = await census(async (request) =>
      real({
        ...request,
        headers: { ...request.headers, origin: t.app.civitas.config.origin, 'sec-fetch-site': 'same-origin' },
      }),
    );
    expect(body.boundaries.find((row) => row.key === 'request_provenance')?.status).toBe('unbound');
  });

  it('turns connection_claim unbound without HSTS, and every header row unbound when the app does not answer', async () => {
    const real = probeInject(t.app);
    const noHsts = await census(async (request) => {
      const response = await real(request);
      const { 'strict-transport-security': _dropped, ...headers } = response.headers;
      return { ...response, headers };
    });
    expect(noHsts.boundaries.filter((row) => row.status === 'unbound').map((row) => row.key)).toEqual([
      'connection_claim',
    ]);
    const down = await census(async () => {
      throw new Error('ECONNREFUSED');
    });
    expect(down.boundaries.filter((row) => row.status === 'unbound').map((row) => row.key)).toEqual([
      ...HEADER_BOUNDARY_KEYS,
    ]);
    expect(down.unbound_count).toBe(5);
  });
});
