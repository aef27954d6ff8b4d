/**
 * What calibration's reads select beside the entities' columns: times as ISO text (in raw SQL and
 * in typed Kysely queries alike), and a forecaster's public face from a left join on sovereigns,
 * projected as the service or through the actor projector.
 */
import { sql as fragment } from 'kysely';
import type { Row } from '../db/kysely.ts';
import { projectActorRef, type ActorRef } from '../../shared/boundaries/projectors/actors.ts';

const ISO_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
/** A timestamp column as ISO text in UTC to the millisecond, in raw SQL. */
export const ISO = (column: string) => `to_char(${column} at time zone 'UTC', ${ISO_FORMAT})`;
/** The same text in a typed Kysely query (`.as(name)` names it). */
export const isoOf = (column: string) =>
  fragment<string>`to_char(${fragment.ref(column)} at time zone 'UTC', ${fragment.raw(ISO_FORMAT)})`;

/**
 * A forecaster's public face as a left join on sovereigns selects it (`s.tag, s.callsign,
 * s.callsign_visible, s.erased_at is not null as erased`): all null for the service.
 */
export type Face = {
  tag: Row<'sovereigns'>['tag'] | null;
  callsign: Row<'sovereigns'>['callsign'] | null;
  callsign_visible: Row<'sovereigns'>['callsign_visible'] | null;
} & { erased: boolean | null };

export type Forecaster = ActorRef | { kind: 'service'; ref: 'service:civitas'; display: 'civitas' };

/** A forecaster as the public sees it: the service, or a sovereign through the actor projector (nothing of an erased one). */
export function forecasterOf(
  row: { forecaster_kind: string; forecaster_id: string | null } & Face,
): Forecaster {
  if (row.forecaster_kind === 'service')
    return { kind: 'service', ref: 'service:civitas', display: 'civitas' };
  return projectActorRef({
    actor_id: row.forecaster_id ?? '',
    kind: 'sovereign',
    tag: row.erased ? null : row.tag,
    callsign: row.erased ? null : row.callsign,
    callsign_visible: row.callsign_visible === true && !row.erased,
  });
}
