/**
 * The entity references GET /api/why/{entity} (and MCP civitas_why) explains: `imprint:<n>`,
 * `agent:<handle>`, `receipt:<id>`, `order:<ord_ id>`. The contract validates with readEntity
 * (shared/organism/contract/explanations.ts); the projection reads the parsed entity from it too.
 */
import { HANDLE_PATTERN } from '../handle.ts';
import { ORDER_ID } from '../orders/order.ts';

export const ENTITY_FORMS = [
  'imprint:<sequence>',
  'agent:<handle>',
  'receipt:<rcpt_ id>',
  'order:<ord_ id>',
] as const;
const RECEIPT_ID = /^rcpt_[0-9A-HJKMNP-TV-Z]{26}$/;

export type Entity =
  | { kind: 'imprint'; sequence: number }
  | { kind: 'agent'; handle: string }
  | { kind: 'receipt'; id: string }
  | { kind: 'order'; id: string };

/** Parses an entity reference, or says what is wrong with it (the words of the 400 issue). */
export function readEntity(raw: string): Entity | { problem: string } {
  if (raw.length === 0 || raw.length > 100)
    return {
      problem:
        'entity is 1 to 100 characters: imprint:<sequence>, agent:<handle>, receipt:<id> or order:<id>.',
    };
  const colon = raw.indexOf(':');
  const prefix = colon === -1 ? '' : raw.slice(0, colon).toLowerCase();
  const rest = colon === -1 ? '' : raw.slice(colon + 1);
  if (prefix === 'imprint') {
    if (!/^[1-9][0-9]{0,14}$/.test(rest))
      return { problem: 'imprint:<sequence> takes a positive whole number.' };
    return { kind: 'imprint', sequence: Number(rest) };
  }
  if (prefix === 'agent') {
    const handle = rest.toLowerCase();
    if (!HANDLE_PATTERN.test(handle))
      return {
        problem: 'agent:<handle> takes a handle of 2 to 63 characters: a-z, 0-9, dot, underscore, hyphen.',
      };
    return { kind: 'agent', handle };
  }
  if (prefix === 'receipt') {
    if (!RECEIPT_ID.test(rest))
      return { problem: 'receipt:<id> takes a receipt id: rcpt_ followed by 26 ULID characters.' };
    return { kind: 'receipt', id: rest };
  }
  if (prefix === 'order') {
    if (!ORDER_ID.test(rest))
      return { problem: 'order:<id> takes an order id: ord_ followed by 26 ULID characters.' };
    return { kind: 'order', id: rest };
  }
  return { problem: 'entity must start with imprint:, agent:, receipt: or order:.' };
}
