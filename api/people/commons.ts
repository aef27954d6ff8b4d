/**
 * The commons (/commons and MCP `civitas_commons`): who is here now, as groups through the
 * anonymity_cardinality projector. A sovereign who made their callsign visible chose to be seen
 * and is listed by public ref; everyone else (and every agent: there is no listing choice for a
 * handle) is behind the placeholder, whose count reads "fewer than 5" under 5.
 *
 * /api/presence publishes each kind's count, so `listed + others` must not let anyone recover a
 * hidden group of 1–4 by subtraction: when the hidden part would be 1–4, nobody in that group is
 * listed (the whole group goes behind the placeholder).
 */
import type { AppContext } from '../context.ts';
import { sql } from 'kysely';
import { K_ANONYMITY_THRESHOLD } from '../../shared/boundaries/k-anonymity.ts';
import { projectCommons, type CommonsGroupRecord } from '../../shared/boundaries/projectors/gatherings.ts';
import { PRESENCE_WINDOW_MINUTES, presence } from './presence.ts';

type Member = CommonsGroupRecord['members'][number];

/** Guards a group so its hidden part is 0 or at least k (see the module note). */
export function guardListing(members: Member[]): Member[] {
  const hidden = members.filter((member) => member.listed !== true).length;
  if (hidden > 0 && hidden < K_ANONYMITY_THRESHOLD)
    return members.map((member) => ({ ...member, listed: false }));
  return members;
}

export async function commonsView(ctx: AppContext) {
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - PRESENCE_WINDOW_MINUTES * 60_000).toISOString();
  const [humans, agents, here] = await Promise.all([
    // the same population /api/presence counts; an erased sovereign is never listed
    ctx.db.kysely
      .selectFrom('sovereigns')
      .select([
        sql<string>`id::text`.as('id'),
        'tag',
        sql<boolean>`(callsign_visible and erased_at is null)`.as('callsign_visible'),
      ])
      .where('last_seen_at', '>=', since)
      .orderBy('tag')
      .orderBy('sovereigns.id')
      .execute(),
    // the agents seen lately are kept apart as they are written (migration 0045): a small table
    ctx.db.kysely
      .selectFrom('agents_seen')
      .select('handle')
      .where('last_seen_at', '>=', since)
      .orderBy('handle')
      .execute(),
    presence(ctx),
  ]);
  const groups: CommonsGroupRecord[] = [
    {
      label: 'Humans here now',
      members: guardListing(
        humans.map((row) => ({
          actor_id: row.id,
          kind: 'sovereign' as const,
          tag: row.tag,
          listed: row.callsign_visible === true,
        })),
      ),
    },
    {
      label: 'Agents here now',
      members: agents.map((row) => ({
        actor_id: row.handle,
        kind: 'agent' as const,
        handle: row.handle,
        listed: false,
      })),
    },
  ];
  return {
    ok: true as const,
    schema: 'civitas.commons.v1' as const,
    as_of: now.toISOString(),
    window_minutes: PRESENCE_WINDOW_MINUTES,
    k: K_ANONYMITY_THRESHOLD,
    basis: `Active in the last ${PRESENCE_WINDOW_MINUTES} minutes. Sovereigns who made their callsign visible are listed by public ref; everyone else is counted behind a placeholder that reads "fewer than 5" under 5. No total is published beside it.`,
    ...projectCommons(groups),
    confluences: here.confluences,
  };
}
