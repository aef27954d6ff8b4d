/**
 * The public roster (GET /api/citizens, /citizens): sovereigns by public tag (with the callsign
 * only when they chose to show it; erased sovereigns are never listed) and agents by handle with
 * their naturalization level. Two kinds, two lists, never summed. Every entry goes through the
 * actor_id projector; no join date is published per person (cohorts publish join months only as
 * k-anonymous counts).
 */
import type { AppContext } from '../context.ts';
import { projectActorRef, type ActorRef } from '../../shared/boundaries/projectors/actors.ts';
import {
  decodeRosterCursor,
  encodeRosterCursor,
  nextResume,
  previousResume,
  type Resume,
  type RosterCursor,
  type Shown,
} from './roster-cursor.ts';
import { one } from '../db/rows.ts';
import { constant, type Row } from '../db/kysely.ts';
import type { NotNull } from 'kysely';

/**
 * A handle is public once one of its imprints is: a handle whose every imprint the spam gate holds
 * is a held name (held_spam) and is neither listed nor counted here. `agents.public` is kept by the
 * database (migration 0032), and /api/stats counts the same column's tally: one definition.
 */
export const PUBLIC_AGENT = 'agents.public';

export interface RosterQuery {
  kind?: 'sovereign' | 'agent';
  limit: number;
  page: number;
  /** the cursor of a `next` link: where each list resumes */
  after?: string;
}

export interface AgentRosterEntry extends ActorRef {
  level: string;
}

/**
 * One page of each list, by key: sovereigns by (tag, id), agents by handle, each resuming after
 * the last entry of the previous page (the cursor in `next`), so a page reads its own rows and
 * the totals are tallies (migration 0040), whatever the population. `page` without a cursor is
 * the older offset paging, kept for links already out there.
 */
export async function citizens(ctx: AppContext, query: RosterQuery) {
  const cursor: RosterCursor = query.after
    ? decodeRosterCursor(query.after)
    : { page: query.page, back: false, humans: { from: 'start' }, agents: { from: 'start' } };
  const offset = query.after ? 0 : (query.page - 1) * query.limit;
  const wantHumans = query.kind !== 'agent';
  const wantAgents = query.kind !== 'sovereign';
  const counts = one(
    // The tallies /api/stats reads (migration 0032 keeps them to these lists' definitions): one
    // definition of who is counted, and no count over the tables on a request.
    await ctx.db.kysely
      .selectNoFrom((eb) => [
        eb
          .selectFrom('record_tallies')
          .select('value')
          .where('name', '=', constant('sovereigns'))
          .as('humans'),
        eb.selectFrom('record_tallies').select('value').where('name', '=', constant('agents')).as('agents'),
      ])
      .$narrowType<{ humans: NotNull; agents: NotNull }>() // seeded rows (the migrations)
      .execute(),
  );
  const read = { page: cursor.page, limit: query.limit, offset };
  const humanPage = wantHumans ? await humanRows(ctx, cursor.humans, read) : null;
  const agentPage = wantAgents ? await agentRows(ctx, cursor.agents, read) : null;
  const gone: Resume = { from: 'gone' };
  const next: RosterCursor = {
    page: cursor.page + 1,
    back: false,
    humans: humanPage ? nextResume(cursor.page, cursor.humans, humanPage.shown) : gone,
    agents: agentPage ? nextResume(cursor.page, cursor.agents, agentPage.shown) : gone,
  };
  const previous: RosterCursor = {
    page: cursor.page - 1,
    back: true,
    humans: humanPage ? previousResume(cursor.page, cursor.humans, humanPage.shown) : gone,
    agents: agentPage ? previousResume(cursor.page, cursor.agents, agentPage.shown) : gone,
  };
  const more = [next.humans, next.agents].some((r) => r.from === 'after');
  const kindParam = query.kind ? `&kind=${query.kind}` : '';
  const link = (c: RosterCursor) =>
    `/api/citizens?after=${encodeRosterCursor(c)}&page=${c.page}&limit=${query.limit}${kindParam}`;
  return {
    ok: true as const,
    schema: 'civitas.citizens.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    page: cursor.page,
    limit: query.limit,
    kind: query.kind ?? ('both' as const),
    humans: humanPage ? { total: counts.humans, listed: humanPage.listed } : null,
    agents: agentPage ? { total: counts.agents, listed: agentPage.listed } : null,
    next: more ? link(next) : null,
    previous: cursor.page > 1 && query.after ? link(previous) : null,
  };
}

/** How one list reads its page: the SQL condition on its key and the order, from where it resumes. */
function keyRead(resume: Resume, page: number): { op: string; key: string | null; desc: boolean } | null {
  if (resume.from === 'gone' || (resume.from === 'done' && page > resume.page)) return null;
  if (resume.from === 'start' || (resume.from === 'done' && resume.key === ''))
    return { op: '>', key: null, desc: false };
  if (resume.from === 'done') return { op: '>=', key: resume.key, desc: false };
  return resume.from === 'before'
    ? { op: '<', key: resume.key, desc: true }
    : { op: '>', key: resume.key, desc: false };
}

interface Read {
  page: number;
  limit: number;
  offset: number;
}

/** The rows of a page read in either direction, in the list's order, and what they showed. */
function shownOf<T>(rows: T[], limit: number, desc: boolean, keyOf: (row: T) => string) {
  const page = desc ? rows.slice(0, limit).reverse() : rows.slice(0, limit);
  const shown: Shown = {
    first: page.length ? keyOf(page[0] as T) : null,
    last: page.length ? keyOf(page[page.length - 1] as T) : null,
    // Read backwards, the key it read before is still there.
    more: desc ? page.length > 0 : rows.length > limit,
  };
  return { page, shown };
}

async function humanRows(ctx: AppContext, resume: Resume, read: Read) {
  const how = keyRead(resume, read.page);
  if (!how) return { listed: [] as ActorRef[], shown: { first: null, last: null, more: false } };
  const [tag, id] = how.key ? [how.key.slice(0, 4), how.key.slice(5)] : ['', null];
  const dir = how.desc ? 'desc' : 'asc';
  // Ordered by tag (ties by the private id, which only orders and never leaves): no join order is revealed.
  // Raw: a keyset read by the row comparison (tag, id), direction and operator chosen per page.
  const rows = await ctx.db.query<Pick<Row<'sovereigns'>, 'id' | 'tag' | 'callsign' | 'callsign_visible'>>(
    `select id::text as id, tag, callsign, callsign_visible from sovereigns
      where erased_at is null and ($1::uuid is null or (tag, id) ${how.op} ($2::char(4), $1::uuid))
      order by tag ${dir}, id ${dir} limit $3 offset $4`,
    [id, tag, read.limit + 1, read.offset],
  );
  const { page, shown } = shownOf(rows, read.limit, how.desc, (row) => `${row.tag}.${row.id}`);
  const listed = page.map((row) =>
    projectActorRef({
      actor_id: row.id,
      kind: 'sovereign',
      tag: row.tag,
      callsign: row.callsign,
      callsign_visible: row.callsign_visible === true,
    }),
  );
  return { listed, shown };
}

async function agentRows(ctx: AppContext, resume: Resume, read: Read) {
  const how = keyRead(resume, read.page);
  if (!how) return { listed: [] as AgentRosterEntry[], shown: { first: null, last: null, more: false } };
  // Raw: the keyset read's operator and direction are chosen per page.
  const rows = await ctx.db.query<Pick<Row<'agents'>, 'handle' | 'level'>>(
    `select handle, level from agents where ${PUBLIC_AGENT} and ($1::text is null or handle ${how.op} $1)
      order by handle ${how.desc ? 'desc' : 'asc'} limit $2 offset $3`,
    [how.key, read.limit + 1, read.offset],
  );
  const { page, shown } = shownOf(rows, read.limit, how.desc, (row) => row.handle);
  const listed = page.map((row) => ({
    ...projectActorRef({ actor_id: row.handle, kind: 'agent', handle: row.handle }),
    level: row.level,
  }));
  return { listed, shown };
}
