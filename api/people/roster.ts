/**
 * The public roster (GET /api/citizens, /citizens): sovereigns by public tag (with the callsign
 * only when they chose to show it; erased sovereigns are never listed) and agents by handle with
 * their naturalization level. Two kinds, two lists, never summed. Every entry goes through the
 * actor_id projector; no join date is published per person (cohorts publish join months only as
 * k-anonymous counts).
 */
import type { AppContext } from '../context.ts';
import { Refusal } from '../../shared/errors.ts';
import { projectActorRef, type ActorRef } from '../../shared/boundaries/projectors/actors.ts';

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

/** Where a list resumes: from its start, after a key, or done. */
type Resume = { from: 'start' } | { from: 'key'; key: string } | { from: 'done' };

interface Cursor {
  page: number;
  humans: Resume;
  agents: Resume;
}

const resumeText = (r: Resume) => (r.from === 'start' ? '' : r.from === 'done' ? '!' : r.key);
const resumeOf = (text: string): Resume =>
  text === '' ? { from: 'start' } : text === '!' ? { from: 'done' } : { from: 'key', key: text };

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.page}~${resumeText(cursor.humans)}~${resumeText(cursor.agents)}`).toString(
    'base64url',
  );
}

/** A cursor this roster wrote, or a 400 naming `after`. */
export function decodeCursor(after: string): Cursor {
  const parts = Buffer.from(after, 'base64url').toString('utf8').split('~');
  const page = Number(parts[0]);
  const humans = parts[1] ?? '';
  if (
    parts.length !== 3 ||
    !Number.isInteger(page) ||
    page < 2 ||
    !/^(|!|[0-9a-f]{4}\.[0-9a-f-]{36})$/.test(humans)
  ) {
    throw new Refusal('invalid_request', {
      issues: [{ path: 'after', message: 'after is the cursor of a next link of /api/citizens' }],
    });
  }
  return { page, humans: resumeOf(humans), agents: resumeOf(parts[2]) };
}

/**
 * One page of each list, by key: sovereigns by (tag, id), agents by handle, each resuming after
 * the last entry of the previous page (the cursor in `next`), so a page reads its own rows and
 * the totals are tallies (migration 0040), whatever the population. `page` without a cursor is
 * the older offset paging, kept for links already out there.
 */
export async function citizens(ctx: AppContext, query: RosterQuery) {
  const cursor: Cursor = query.after
    ? decodeCursor(query.after)
    : { page: query.page, humans: { from: 'start' }, agents: { from: 'start' } };
  const offset = query.after ? 0 : (query.page - 1) * query.limit;
  const wantHumans = query.kind !== 'agent';
  const wantAgents = query.kind !== 'sovereign';
  const [counts] = await ctx.db.query<{ humans: string | number; agents: string | number }>(
    // The tallies /api/stats reads (migration 0032 keeps them to these lists' definitions): one
    // definition of who is counted, and no count over the tables on a request.
    `select (select value from record_tallies where name = 'sovereigns') as humans,
            (select value from record_tallies where name = 'agents') as agents`,
  );
  const humansTotal = Number(counts.humans);
  const agentsTotal = Number(counts.agents);
  const humanPage = wantHumans ? await humanRows(ctx, cursor.humans, query.limit, offset) : null;
  const agentPage = wantAgents ? await agentRows(ctx, cursor.agents, query.limit, offset) : null;
  const nextCursor: Cursor = {
    page: cursor.page + 1,
    humans: humanPage?.resume ?? { from: 'done' },
    agents: agentPage?.resume ?? { from: 'done' },
  };
  const more = nextCursor.humans.from !== 'done' || nextCursor.agents.from !== 'done';
  const kindParam = query.kind ? `&kind=${query.kind}` : '';
  return {
    ok: true as const,
    schema: 'civitas.citizens.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    page: cursor.page,
    limit: query.limit,
    kind: query.kind ?? ('both' as const),
    humans: humanPage ? { total: humansTotal, listed: humanPage.listed } : null,
    agents: agentPage ? { total: agentsTotal, listed: agentPage.listed } : null,
    next: more
      ? `/api/citizens?after=${encodeCursor(nextCursor)}&page=${cursor.page + 1}&limit=${query.limit}${kindParam}`
      : null,
  };
}

/** A page of one list and where the next resumes (done when this page was not full). */
interface ListPage<T> {
  listed: T[];
  resume: Resume;
}

async function humanRows(ctx: AppContext, resume: Resume, limit: number, offset: number) {
  if (resume.from === 'done') return { listed: [], resume } satisfies ListPage<ActorRef>;
  const [tag, id] = resume.from === 'key' ? [resume.key.slice(0, 4), resume.key.slice(5)] : ['', null];
  // Ordered by tag (ties by the private id, which only orders and never leaves): no join order is revealed.
  const rows = await ctx.db.query<{
    id: string;
    tag: string;
    callsign: string | null;
    callsign_visible: boolean;
  }>(
    `select id::text as id, tag, callsign, callsign_visible from sovereigns
      where erased_at is null and ($1::uuid is null or (tag, id) > ($2::char(4), $1::uuid))
      order by tag, id limit $3 offset $4`,
    [id, tag, limit + 1, offset],
  );
  const listed = rows.slice(0, limit).map((row) =>
    projectActorRef({
      actor_id: row.id,
      kind: 'sovereign',
      tag: row.tag,
      callsign: row.callsign,
      callsign_visible: row.callsign_visible === true,
    }),
  );
  const last = rows[limit - 1];
  return {
    listed,
    resume: rows.length > limit ? { from: 'key', key: `${last.tag}.${last.id}` } : { from: 'done' },
  } satisfies ListPage<ActorRef>;
}

async function agentRows(ctx: AppContext, resume: Resume, limit: number, offset: number) {
  if (resume.from === 'done') return { listed: [], resume } satisfies ListPage<AgentRosterEntry>;
  const rows = await ctx.db.query<{ handle: string; level: string }>(
    `select handle, level from agents where ${PUBLIC_AGENT} and ($1::text is null or handle > $1)
      order by handle limit $2 offset $3`,
    [resume.from === 'key' ? resume.key : null, limit + 1, offset],
  );
  const listed = rows.slice(0, limit).map((row) => ({
    ...projectActorRef({ actor_id: row.handle, kind: 'agent', handle: row.handle }),
    level: row.level,
  }));
  return {
    listed,
    resume: rows.length > limit ? { from: 'key', key: rows[limit - 1].handle } : { from: 'done' },
  } satisfies ListPage<AgentRosterEntry>;
}
