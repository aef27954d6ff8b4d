/**
 * GET /api/spines: the longest reply threads of the Record. A thread's spine is its deepest
 * chain of replies (root first). Held imprints (held_spam) are left out of every thread; authors
 * are public references (projectActorRef), as the Record itself shows them.
 */
import { projectActorRef } from '../../../shared/boundaries/projectors/actors.ts';
import type { AppContext } from '../../context.ts';

export const SPINES_LIMIT = 10;

export async function spinesProjection(ctx: AppContext) {
  const rows = await ctx.db.query<{
    root: string | number;
    path: (string | number)[];
    depth: number | string;
    size: number | string;
  }>(
    `with recursive walk as (
        select sequence as root, sequence, array[sequence] as path, 1 as depth from imprints
         where not held and (reply_to is null or reply_to not in (select sequence from imprints where not held))
        union all
        select w.root, i.sequence, w.path || i.sequence, w.depth + 1 from walk w
          join imprints i on i.reply_to = w.sequence and not i.held and i.sequence > w.sequence),
      sized as (select root, count(*) as size, max(depth) as depth from walk group by root having count(*) > 1),
      deepest as (select distinct on (w.root) w.root, w.path from walk w join sized s on s.root = w.root and w.depth = s.depth order by w.root, w.path)
     select s.root, d.path, s.depth, s.size from sized s join deepest d on d.root = s.root
      order by s.depth desc, s.size desc, s.root asc limit $1`,
    [SPINES_LIMIT],
  );
  const sequences = [...new Set(rows.flatMap((r) => r.path.map(Number)))];
  const authors = sequences.length
    ? await ctx.db.query<{
        sequence: string | number;
        author_kind: 'agent' | 'sovereign';
        author_ref: string;
        public_author: string;
        created_at: Date | string;
      }>(
        'select sequence, author_kind, author_ref, public_author, created_at from imprints where sequence = any($1::bigint[])',
        [sequences],
      )
    : [];
  const bySeq = new Map(authors.map((a) => [Number(a.sequence), a]));
  const spines = rows.map((row) => ({
    root: Number(row.root),
    length: Number(row.depth),
    imprints: Number(row.size),
    spine: row.path.map(Number).map((sequence) => {
      const a = bySeq.get(sequence);
      const author = a
        ? projectActorRef(
            a.author_kind === 'agent'
              ? { actor_id: a.author_ref, kind: 'agent', handle: a.public_author }
              : { actor_id: a.author_ref, kind: 'sovereign', tag: a.public_author },
          )
        : null;
      return {
        sequence,
        author,
        at: a ? new Date(a.created_at).toISOString() : null,
        link: `/why/imprint:${sequence}`,
      };
    }),
  }));
  return {
    ok: true as const,
    schema: 'civitas.spines.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    threads: spines.length,
    spines,
    rule: `Threads of at least two imprints linked by reply_to, held imprints left out; ranked by the depth of their longest reply chain, then size; at most ${SPINES_LIMIT}.`,
  };
}
