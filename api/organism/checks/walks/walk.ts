/**
 * The incremental walks behind the self-trials (docs/organism.md "Self-knowledge kept"). A walk
 * goes through one ordered history (imprints by sequence, the log by day and leaf, censuses by
 * date) verifying a bounded number of items per step from a stored cursor, so no run reads rows in
 * proportion to the history and a backlog is caught up over several runs. Each walk keeps one
 * cursor per mode: `frontier` verifies what is new since its last verified point, `sweep`
 * verifies the stretch the frontier has passed again, lap after lap (tampering with an old row
 * shows within a lap), `full` is the operator's re-verification from genesis (scripts/verify-full.ts).
 *
 * A problem is stored under the position where it lies; a step deletes the problems inside the
 * stretch it covered before storing what it found there, so a healed row turns green when a walk
 * passes it again, and a trial is red while any problem of it is stored.
 */
import type { AppContext } from '../../../context.ts';
import type { Sql } from '../../../db/database.ts';
import { sql as fragment } from 'kysely';
import type { RowOf } from '../../../db/rows.ts';
import type { SelfKnowledgeWalk } from '../../entities.ts';

export type WalkMode = 'frontier' | 'sweep' | 'full';
export type WalkName = 'imprints' | 'ledger' | 'censuses';

export interface Problem {
  trial: string;
  /** the position where it lies (sortable text, the walk's key) */
  key: string;
  detail: string;
}

export interface Step<C> {
  cursor: C;
  checked: number;
  problems: Problem[];
  /** true when the walk reached `until` (or the head): nothing more to verify now */
  end: boolean;
}

export interface Walk<C> {
  name: WalkName;
  /** the trials (and truth claims) whose problems this walk finds */
  trials: readonly string[];
  genesis: C;
  /** the sortable position of a cursor: every item the step covered lies in [key(before), key(after)) */
  key(cursor: C): string;
  /** verifies up to `budget` items after `cursor`, never at or past `until` when given */
  step(sql: Sql, ctx: AppContext, cursor: C, budget: number, until: C | null): Promise<Step<C>>;
}

export interface WalkState<C> {
  cursor: C;
  /** items verified in the current lap */
  checked: number;
  lap_started_at: string | null;
  lap_completed_at: string | null;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

export async function readWalk<C>(sql: Sql, walk: Walk<C>, mode: WalkMode): Promise<WalkState<C> | null> {
  /** A lap time as ISO text to the millisecond, typed from the entity's column. */
  const isoOf = <K extends 'lap_started_at' | 'lap_completed_at'>(column: K) =>
    fragment<
      RowOf<typeof SelfKnowledgeWalk>[K]
    >`to_char(${fragment.ref(column)} at time zone 'UTC', ${fragment.raw(ISO)})`.as(column);
  const [row] = await sql.kysely
    .selectFrom('self_knowledge_walks')
    .select(['cursor', 'checked', isoOf('lap_started_at'), isoOf('lap_completed_at')])
    .where('walk', '=', walk.name)
    .where('mode', '=', mode)
    .execute();
  if (!row) return null;
  return {
    cursor: (typeof row.cursor === 'string' ? JSON.parse(row.cursor) : row.cursor) as C,
    checked: row.checked,
    lap_started_at: row.lap_started_at,
    lap_completed_at: row.lap_completed_at,
  };
}

async function saveWalk<C>(sql: Sql, walk: Walk<C>, mode: WalkMode, state: WalkState<C>, now: string) {
  await sql.query(
    `insert into self_knowledge_walks (walk, mode, cursor, checked, lap_started_at, lap_completed_at, updated_at)
     values ($1, $2, $3::jsonb, $4, $5, $6, $7)
     on conflict (walk, mode) do update set cursor = excluded.cursor, checked = excluded.checked,
       lap_started_at = excluded.lap_started_at, lap_completed_at = excluded.lap_completed_at,
       updated_at = excluded.updated_at`,
    [
      walk.name,
      mode,
      JSON.stringify(state.cursor),
      state.checked,
      state.lap_started_at,
      state.lap_completed_at,
      now,
    ],
  );
}

/** Stores what a step found in [from, to): the problems stored there before are replaced. */
async function replaceProblems(
  sql: Sql,
  trials: readonly string[],
  from: string,
  to: string,
  problems: Problem[],
  now: string,
) {
  await sql.query(
    `delete from self_knowledge_problems where trial = any($1::text[]) and at_key >= $2 and at_key < $3`,
    [trials, from, to],
  );
  if (problems.length === 0) return;
  await sql.query(
    `insert into self_knowledge_problems (trial, at_key, detail, found_at)
     select p.trial, p.key, p.detail, $2::timestamptz from jsonb_to_recordset($1::jsonb) as p(trial text, key text, detail text)
     on conflict (trial, at_key) do update set detail = excluded.detail`,
    [JSON.stringify(problems), now],
  );
}

export interface Advance {
  mode: WalkMode;
  checked: number;
  /** the lap ended in this advance (sweep, full): the next one starts from genesis */
  lap_completed: boolean;
  end: boolean;
}

/**
 * Advances one walk in one mode by at most `budget` items and stores the cursor and the problems
 * found, inside the caller's transaction. A sweep stops where the frontier stands and then starts
 * a new lap from genesis; a full run continues its lap until the head, then starts a new one the
 * next time it is asked to.
 */
export async function advance<C>(
  sql: Sql,
  ctx: AppContext,
  walk: Walk<C>,
  mode: WalkMode,
  budget: number,
): Promise<Advance> {
  const now = ctx.clock.now().toISOString();
  const stored = await readWalk(sql, walk, mode);
  const fresh: WalkState<C> = {
    cursor: walk.genesis,
    checked: 0,
    lap_started_at: now,
    lap_completed_at: stored?.lap_completed_at ?? null,
  };
  // A full run whose lap ended (lap_started_at cleared) starts again from genesis when asked.
  const state = !stored || (mode === 'full' && stored.lap_started_at === null) ? fresh : stored;
  const until = mode === 'sweep' ? ((await readWalk(sql, walk, 'frontier'))?.cursor ?? walk.genesis) : null;
  const step = await walk.step(sql, ctx, state.cursor, budget, until);
  await replaceProblems(sql, walk.trials, walk.key(state.cursor), walk.key(step.cursor), step.problems, now);
  const lapCompleted = mode !== 'frontier' && step.end;
  const next: WalkState<C> = !lapCompleted
    ? { ...state, cursor: step.cursor, checked: state.checked + step.checked }
    : mode === 'sweep'
      ? { cursor: walk.genesis, checked: 0, lap_started_at: now, lap_completed_at: now }
      : {
          cursor: step.cursor,
          checked: state.checked + step.checked,
          lap_started_at: null,
          lap_completed_at: now,
        };
  await saveWalk(sql, walk, mode, next, now);
  return { mode, checked: step.checked, lap_completed: lapCompleted, end: step.end };
}

/** Zero-padded so positions sort as text. */
export const pad = (n: number, width = 16) => String(n).padStart(width, '0');

/** Starts a new lap of a walk from genesis (the full run, when the last one ended or on request). */
export async function startLap<C>(sql: Sql, ctx: AppContext, walk: Walk<C>, mode: WalkMode): Promise<void> {
  const now = ctx.clock.now().toISOString();
  const stored = await readWalk(sql, walk, mode);
  await saveWalk(
    sql,
    walk,
    mode,
    {
      cursor: walk.genesis,
      checked: 0,
      lap_started_at: now,
      lap_completed_at: stored?.lap_completed_at ?? null,
    },
    now,
  );
}
