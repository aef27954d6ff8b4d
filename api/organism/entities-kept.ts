/**
 * The organism's tables kept so its views read a bounded number of rows (migration 0082), beside
 * entities.ts (which re-exports them: one family, one list of entities).
 */
import { defineEntity, p } from '@mikro-orm/core';
import { int8 } from '../db/rows.ts';

/** The prevention experiment's counts of one UTC day: accepted, held per rule; dirty until counted again. */
export const PreventionDay = defineEntity({
  name: 'PreventionDay',
  tableName: 'prevention_days',
  properties: {
    day: p.date().primary(),
    accepted: int8(),
    held: p.json<Record<string, number>>(),
    dirty: p.boolean(),
  },
});

/** A UTC minute in which authors flooded (more accepted imprints than the burst rule allows), and how many. */
export const PreventionMinute = defineEntity({
  name: 'PreventionMinute',
  tableName: 'prevention_minutes',
  properties: {
    minute: p.datetime().primary(),
    floods: int8(),
  },
});

/**
 * The next imprint number the prevention counts take in, and the first day they hold whole (id 1);
 * null: the window is counted whole at the next run.
 */
export const PreventionCursor = defineEntity({
  name: 'PreventionCursor',
  tableName: 'prevention_cursor',
  properties: {
    id: p.smallint().primary().autoincrement(false),
    nextSequence: int8().nullable(),
    countedFrom: p.date().nullable(),
  },
});

/** A term of the stored dreams: how many dreams named it, the first and the last. */
export const DreamTermKept = defineEntity({
  name: 'DreamTermKept',
  tableName: 'dream_terms',
  properties: {
    term: p.text().primary(),
    dreams: int8(),
    firstDreamt: p.date(),
    lastDreamt: p.date(),
  },
});

/** Two terms (a before b by code point) and how many dreams named both. */
export const DreamLink = defineEntity({
  name: 'DreamLink',
  tableName: 'dream_links',
  properties: {
    a: p.text().primary(),
    b: p.text().primary(),
    shared: int8(),
  },
});
