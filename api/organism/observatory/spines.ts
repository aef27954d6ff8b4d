/**
 * GET /api/spines: the longest reply threads of the Record. A thread's spine is its deepest
 * chain of replies (root first). Held imprints (held_spam) are left out of every thread; authors
 * are public references (projectActorRef), as the Record itself shows them. Threads are kept as
 * replies are written (migration 0063), so a request reads the ten longest, never every thread.
 */
import { projectActorRef } from '../../../shared/boundaries/projectors/actors.ts';
import type { AppContext } from '../../context.ts';
import { sql as fragment } from 'kysely';
import type { RowOf } from '../../db/rows.ts';
import type { Thread, ThreadNode } from '../entities.ts';

export const SPINES_LIMIT = 10;

export async function spinesView(ctx: AppContext) {
  // The threads are kept as replies arrive (migration 0063): the longest are the first rows of an
  // index, and each spine is walked up from its deepest imprints (the smallest path among them, as
  // the whole-history walk chose it).
  // Raw: a recursive walk up each deepest thread's reply chain.
  const rows = await ctx.db.query<
    Pick<RowOf<typeof Thread>, 'root' | 'depth' | 'size'> & { path: RowOf<typeof ThreadNode>['sequence'][] }
  >(
    `with recursive top as (select root, size, depth from threads order by depth desc, size desc, root asc limit ${SPINES_LIMIT}),
      up as (
        select t.root, n.sequence as leaf, n.sequence as at, array[n.sequence] as path
          from top t join thread_nodes n on n.root = t.root and n.depth = t.depth
        union all
        select u.root, u.leaf, i.reply_to, i.reply_to || u.path from up u
          join imprints i on i.sequence = u.at where u.at <> u.root),
      deepest as (select distinct on (root) root, path from up where at = root order by root, path)
     select t.root, d.path, t.depth, t.size from top t join deepest d on d.root = t.root
      order by t.depth desc, t.size desc, t.root asc`,
  );
  const sequences = [...new Set(rows.flatMap((r) => r.path.map(Number)))];
  const authors = sequences.length
    ? await ctx.db.kysely
        .selectFrom('imprints')
        .select(['sequence', 'author_kind', 'author_ref', 'public_author', 'created_at'])
        .where((eb) => eb('sequence', '=', eb.fn.any(fragment<number[]>`${sequences}::bigint[]`)))
        .execute()
    : [];
  const bySeq = new Map(authors.map((a) => [a.sequence, a]));
  const spines = rows.map((row) => ({
    root: row.root,
    length: row.depth,
    imprints: row.size,
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
