/**
 * Address pressure of the live sovereign population: how crowded the 65,536 public 4-hex tags are.
 * Read from four tallies the database keeps exact in every statement that writes sovereigns
 * (migration 0081: `address_holders` per tag, and its summary in `record_tallies`), so the read is
 * bounded whatever the population; the same definitions as shared/boundaries/address-pressure.ts
 * `addressPressure(tags)` (tested equal).
 */
import {
  ADDRESS_SPACE,
  addressPressure,
  type AddressPressure,
} from '../../shared/boundaries/address-pressure.ts';
import type { Sql } from '../db/database.ts';
import { one, type Counts } from '../db/rows.ts';

export async function livePressure(sql: Sql): Promise<AddressPressure> {
  try {
    const row = one(
      await sql.query<Counts<'inhabitants' | 'distinct_addresses' | 'colliding' | 'unaddressable'>>(
        `select (select value from record_tallies where name = 'address_inhabitants') as inhabitants,
                (select value from record_tallies where name = 'address_distinct') as distinct_addresses,
                (select value from record_tallies where name = 'address_colliding') as colliding,
                (select value from record_tallies where name = 'address_unaddressable') as unaddressable`,
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
