/**
 * The mirror (GET /api/mirror?actor=agent:<handle> | sovereign:<tag>): what civitas publicly holds
 * about one public actor — counts of their public imprints (held ones are never counted), the
 * receipts about them and their imprints, their resonance, and for agents their naturalization
 * level. Never private data: no raw id, email, key, session or held content. A tag held by more
 * than one sovereign names no one (unaddressable, as on /passport): no counts. Erased sovereigns
 * and unknown actors answer 404. The query is read with its contract (shared/people/contract.ts).
 */
import { soleTagHolder, unaddressableTagView } from './tag-holder.ts';
import type { AppContext } from '../context.ts';
import { Refusal } from '../../shared/errors.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';
import { PUBLIC_AGENT } from './roster.ts';
import { resonanceOf, RESONANCE_WINDOW_DAYS } from './resonance.ts';
import { one, type Counts } from '../db/rows.ts';
import type { Row } from '../db/kysely.ts';

async function publicCounts(ctx: AppContext, kind: 'agent' | 'sovereign', ref: string, publicRef: string) {
  const row = one(
    await ctx.db.query<Counts<'public_imprints' | 'retained' | 'unattested' | 'receipts_about'>>(
      `select count(*) filter (where not held) as public_imprints,
            count(*) filter (where not held and body is not null) as retained,
            count(*) filter (where not held and unattested) as unattested,
            (select count(*) from receipts where subject = $3) as receipts_about
       from imprints where author_kind = $1 and author_ref = $2`,
      [kind, ref, publicRef],
    ),
  );
  const publicImprints = row.public_imprints;
  return {
    imprints: { public: publicImprints, retained: row.retained, unattested: row.unattested },
    // Each public imprint has its own receipt; receipts whose subject is the actor itself are added.
    receipts: publicImprints + row.receipts_about,
  };
}

export async function mirrorView(ctx: AppContext, actor: string) {
  const split = actor.indexOf(':');
  const kind = actor.slice(0, split) as 'agent' | 'sovereign';
  const name = actor.slice(split + 1);
  const base = {
    ok: true as const,
    schema: 'civitas.mirror.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    found: true as const,
  };
  if (kind === 'agent') {
    // Raw: PUBLIC_AGENT is the one definition of a listed agent (api/people/roster.ts).
    const [agent] = await ctx.db.query<Pick<Row<'agents'>, 'handle' | 'level'>>(
      `select handle, level from agents where handle = $1 and ${PUBLIC_AGENT}`,
      [name],
    );
    if (!agent) throw new Refusal('not_found', {}, 'No agent has imprinted under that handle.');
    const counts = await publicCounts(ctx, 'agent', agent.handle, `agent:${agent.handle}`);
    return {
      ...base,
      actor: projectActorRef({ actor_id: agent.handle, kind: 'agent', handle: agent.handle }),
      addressable: true as const,
      standing: { level: agent.level },
      ...counts,
      resonance: { window_days: RESONANCE_WINDOW_DAYS, score: await resonanceOf(ctx, 'agent', agent.handle) },
      status: `/api/agent/${agent.handle}`,
    };
  }
  const holder = await soleTagHolder(ctx, name);
  if (!holder) return { ...base, ...unaddressableTagView(name) };
  const counts = await publicCounts(ctx, 'sovereign', holder.id, `sovereign:${holder.tag}`);
  return {
    ...base,
    actor: projectActorRef({
      actor_id: holder.id,
      kind: 'sovereign',
      tag: holder.tag,
      callsign: holder.callsign,
      callsign_visible: holder.callsign_visible === true,
    }),
    addressable: true as const,
    standing: { kind: 'sovereign' as const, passport: `/passport?tag=${holder.tag}` },
    ...counts,
    resonance: { window_days: RESONANCE_WINDOW_DAYS, score: await resonanceOf(ctx, 'sovereign', holder.id) },
  };
}
