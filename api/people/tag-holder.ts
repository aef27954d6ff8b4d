import type { AppContext } from '../context.ts';
import type { Row } from '../db/kysely.ts';
import { Refusal } from '../../shared/errors.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';

export type TagHolder = Pick<Row<'sovereigns'>, 'id' | 'tag' | 'callsign' | 'callsign_visible'>;

/**
 * The one sovereign a public tag names, or `null` when several hold it (a colliding tag names no one
 * and is never reversed). An unknown or erased tag is 404. Used by every public-actor read.
 */
export async function soleTagHolder(ctx: AppContext, tag: string): Promise<TagHolder | null> {
  const holders = await ctx.db.query<TagHolder>(
    'select id::text as id, tag, callsign, callsign_visible from sovereigns where tag = $1 and erased_at is null limit 2',
    [tag],
  );
  if (holders.length === 0) throw new Refusal('not_found', {}, 'No sovereign holds that tag.');
  return holders.length > 1 ? null : (holders[0] ?? null);
}

/** What a public-actor read publishes for a tag that names no one: the tag only, nothing counted. */
export function unaddressableTagView(tag: string) {
  return {
    actor: projectActorRef({ actor_id: 'unaddressable', kind: 'sovereign', tag }),
    addressable: false as const,
    note: 'More than one sovereign holds this tag, so it names no one; nothing is counted under it.',
  };
}
