/**
 * Address pressure of the live sovereign population: how crowded the 65,536 public 4-hex tags are.
 * Counted in PostgreSQL (one aggregate query, no row per sovereign leaves the database), with the
 * same definitions as shared/boundaries/address-pressure.ts `addressPressure(tags)` (tested equal).
 */
import {
  ADDRESS_SPACE,
  addressPressure,
  type AddressPressure,
} from '../../shared/boundaries/address-pressure.ts';
import type { Sql } from '../db/database.ts';
import { one } from '../db/rows.ts';

export async function livePressure(sql: Sql): Promise<AddressPressure> {
  try {
    const row = one(
      await sql.query<{
        inhabitants: number;
        distinct_addresses: number;
        colliding: number;
        unaddressable: number;
      }>(
        `select coalesce(sum(n), 0) as inhabitants,
              count(*) as distinct_addresses,
              count(*) filter (where n > 1) as colliding,
              coalesce(sum(n) filter (where n > 1), 0) as unaddressable
         from (select count(*) as n from sovereigns where erased_at is null group by lower(tag)) addresses`,
      ),
    );
    const distinct = row.distinct_addresses;
    return {
      available: true,
      inhabitants: row.inhabitants,
      distinct_addresses: distinct,
      address_space: ADDRESS_SPACE,
      colliding_addresses: row.colliding,
      unaddressable: row.unaddressable,
      saturation: Math.round((distinct / ADDRESS_SPACE) * 1e6) / 1e6,
    };
  } catch {
    // The population could not be read: say so (available false), never guess.
    return addressPressure(null);
  }
}
