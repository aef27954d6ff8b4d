import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_SPACE,
  actorTag,
  actorTagger,
  addressPressure,
  passportView,
} from '../../../shared/boundaries/address-pressure.ts';

describe('addressPressure', () => {
  it('counts colliding addresses and the inhabitants they leave unaddressable', () => {
    // beef ×3 and cafe ×2 collide; 0001 and 0002 are alone.
    const tags = ['beef', 'cafe', '0001', 'BEEF', 'beef', 'cafe', '0002'];
    expect(addressPressure(tags)).toEqual({
      available: true,
      inhabitants: 7,
      distinct_addresses: 4,
      address_space: 65536,
      colliding_addresses: 2,
      unaddressable: 5,
      saturation: Math.round((4 / 65536) * 1e6) / 1e6,
    });
  });

  it('reads an empty population as zero pressure and an unreadable one as unavailable', () => {
    expect(addressPressure([])).toMatchObject({
      available: true,
      inhabitants: 0,
      distinct_addresses: 0,
      colliding_addresses: 0,
      unaddressable: 0,
      saturation: 0,
    });
    expect(addressPressure(null)).toMatchObject({
      available: false,
      inhabitants: 0,
      address_space: ADDRESS_SPACE,
    });
  });

  it('saturates towards 1 as the space fills', () => {
    const all = Array.from({ length: ADDRESS_SPACE }, (_, i) => i.toString(16).padStart(4, '0'));
    expect(addressPressure(all)).toMatchObject({
      distinct_addresses: ADDRESS_SPACE,
      colliding_addresses: 0,
      saturation: 1,
    });
  });
});

describe('actorTag', () => {
  const rawId = '3f1b2c4d-0000-4000-8000-000000000abc';

  it('is the first 4 hex characters of HMAC-SHA-256 under the server secret', async () => {
    const expected = createHmac('sha256', 'server-secret').update(rawId).digest('hex').slice(0, 4);
    expect(await actorTag(rawId, 'server-secret')).toBe(expected);
    expect(await actorTag(rawId, new TextEncoder().encode('server-secret'))).toBe(expected);
    expect(await (await actorTagger('server-secret'))(rawId)).toBe(expected);
  });

  it('depends on the key and is always 4 lower-case hex characters', async () => {
    const tags = await Promise.all(['k1', 'k2', 'k3', 'k4'].map((key) => actorTag(rawId, key)));
    for (const tag of tags) expect(tag).toMatch(/^[0-9a-f]{4}$/);
    expect(new Set(tags).size).toBeGreaterThan(1);
  });
});

describe('passportView', () => {
  const holder = (actor_id: string, tag: string, extra = {}) => ({
    actor_id,
    kind: 'sovereign' as const,
    tag,
    joined_at: '2025-03-04T05:06:07Z',
    email: 'x@y.z',
    ...extra,
  });

  it('shows the one holder of a tag by public reference', () => {
    const view = passportView('BEEF', [
      holder('raw-1', 'beef', { callsign: 'Lumen', callsign_visible: true }),
    ]);
    expect(view).toEqual({
      tag: 'beef',
      status: 'addressable',
      holder: { ref: 'sovereign:beef', callsign: 'Lumen', joined_on: '2025-03-04' },
      note: 'This tag names one sovereign.',
    });
  });

  it('shows a colliding tag as unaddressable, with no holder and no count', () => {
    const view = passportView('beef', [holder('raw-1', 'beef'), holder('raw-2', 'beef')]);
    expect(view).toMatchObject({ tag: 'beef', status: 'unaddressable', holder: null });
    expect(JSON.stringify(view)).not.toMatch(/raw-|2025|x@y/);
    expect(JSON.stringify(view)).not.toMatch(/\b2\b/);
  });

  it('refuses malformed tags and ignores holders of other tags', () => {
    expect(passportView('raw-1', [holder('raw-1', 'beef')])).toMatchObject({
      tag: null,
      status: 'unknown',
      holder: null,
    });
    expect(passportView('cafe', [holder('raw-1', 'beef')])).toMatchObject({
      tag: 'cafe',
      status: 'unknown',
      holder: null,
    });
  });
});
