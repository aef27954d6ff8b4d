/**
 * The public 4-hex actor tag and the pressure on its address space (DESIGN.md section 2). Tags are
 * a keyed hash of the raw id, so they do not reverse; with 65,536 addresses collisions are
 * expected, and a colliding tag names nobody: it is shown as unaddressable, never resolved.
 */
import { isPublicTag, type ActorIdentity } from './actor-ref.ts';
import type { ExportRole } from './keys.ts';

export const ADDRESS_SPACE = 65_536;

export interface AddressPressure {
  available: boolean;
  inhabitants: number;
  distinct_addresses: number;
  address_space: number;
  colliding_addresses: number;
  unaddressable: number;
  saturation: number;
}

/**
 * Collision statistics over the live population's tags (one tag per sovereign). `null` means the
 * population could not be read: the figures are then zero and `available` is false.
 */
export function addressPressure(tags: readonly string[] | null | undefined): AddressPressure {
  if (!Array.isArray(tags)) {
    return {
      available: false,
      inhabitants: 0,
      distinct_addresses: 0,
      address_space: ADDRESS_SPACE,
      colliding_addresses: 0,
      unaddressable: 0,
      saturation: 0,
    };
  }
  const holders = new Map<string, number>();
  for (const tag of tags) {
    const address = String(tag).toLowerCase();
    holders.set(address, (holders.get(address) ?? 0) + 1);
  }
  let colliding = 0;
  let unaddressable = 0;
  for (const count of holders.values()) {
    if (count > 1) {
      colliding += 1;
      unaddressable += count;
    }
  }
  return {
    available: true,
    inhabitants: tags.length,
    distinct_addresses: holders.size,
    address_space: ADDRESS_SPACE,
    colliding_addresses: colliding,
    unaddressable,
    saturation: Math.round((holders.size / ADDRESS_SPACE) * 1e6) / 1e6,
  };
}

export type TagKey = string | Uint8Array | CryptoKey;

async function hmacKey(key: TagKey): Promise<CryptoKey> {
  if (typeof key !== 'string' && !(key instanceof Uint8Array)) return key;
  const bytes = typeof key === 'string' ? new TextEncoder().encode(key) : key;
  return crypto.subtle.importKey(
    'raw',
    bytes as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
}

function firstHex4(signature: ArrayBuffer): string {
  let hex = '';
  for (const byte of new Uint8Array(signature, 0, 2)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** The public tag of a raw id: the first 4 hex characters of HMAC-SHA-256(server secret, raw id). */
export async function actorTag(rawId: string, key: TagKey): Promise<string> {
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(key), new TextEncoder().encode(rawId));
  return firstHex4(signature);
}

/** The same derivation with the key imported once, for tagging a whole population. */
export async function actorTagger(key: TagKey): Promise<(rawId: string) => Promise<string>> {
  const cryptoKey = await hmacKey(key);
  return async (rawId) =>
    firstHex4(await crypto.subtle.sign('HMAC', cryptoKey, new TextEncoder().encode(rawId)));
}

export interface PassportHolderRecord extends ActorIdentity {
  joined_at: string;
}

export interface PassportView {
  tag: string | null;
  status: 'addressable' | 'unaddressable' | 'unknown';
  holder: { ref: string; callsign: string | null; joined_on: string } | null;
  note: string;
}

/**
 * identity_addressing — `/passport`: the page for a tag shows its one holder; a tag held by more
 * than one sovereign is unaddressable (no holder, no count), so a tag never resolves to a raw id.
 */
export function passportView(tag: string, holders: readonly PassportHolderRecord[]): PassportView {
  const address = typeof tag === 'string' ? tag.toLowerCase() : '';
  if (!isPublicTag(address))
    return { tag: null, status: 'unknown', holder: null, note: 'A tag is 4 hexadecimal characters.' };
  const [holder, another] = holders.filter(
    (candidate) => candidate.kind === 'sovereign' && candidate.tag === address,
  );
  if (holder === undefined)
    return { tag: address, status: 'unknown', holder: null, note: 'No sovereign holds this tag.' };
  if (another !== undefined) {
    return {
      tag: address,
      status: 'unaddressable',
      holder: null,
      note: 'More than one sovereign holds this tag, so it names no one.',
    };
  }
  return {
    tag: address,
    status: 'addressable',
    holder: {
      ref: `sovereign:${address}`,
      callsign:
        holder.callsign_visible === true && typeof holder.callsign === 'string' ? holder.callsign : null,
      joined_on: holder.joined_at.slice(0, 10),
    },
    note: 'This tag names one sovereign.',
  };
}

export const BOUNDARY_EXPORT_ROLES = {
  ADDRESS_SPACE: 'vocabulary',
  addressPressure: 'component',
  actorTag: 'component',
  actorTagger: 'component',
  passportView: 'censused',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
