/**
 * What every chronicle view counts with: imprints tallied by kind, UTC days and months in SQL.
 * Held imprints are never counted on these surfaces; imprints appear only through the Record's
 * projection (projectImprint), actors only through projectActorRef.
 */
import { IMPRINT_KINDS } from '../../shared/record/imprint.ts';

export const DAY_MS = 86_400_000;
export const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
export const DAY = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
export const MONTH = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM')`;

type Kind = (typeof IMPRINT_KINDS)[number];
export type ByKind = Record<Kind, number>;
export const n = (value: unknown) => Number(value ?? 0);
export const emptyKinds = (): ByKind => ({ thought: 0, question: 0, signal: 0 });

export function addKind(target: ByKind, kind: string, count: number) {
  if ((IMPRINT_KINDS as readonly string[]).includes(kind)) target[kind as Kind] += count;
}
