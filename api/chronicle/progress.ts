/**
 * An actor's progress toward its next standing level.
 */
import { soleTagHolder, unaddressableTagView } from '../people/tag-holder.ts';
import type { AppContext } from '../context.ts';
import { Refusal } from '../../shared/errors.ts';
import { CONTINUITY_DAYS_REQUIRED, type Level } from '../../shared/agents/naturalization.ts';
import { nextActionsFor, summarizeNext } from '../../shared/agents/status.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';
import { factsOf, loadAgent } from '../agents/service.ts';
import { PUBLIC_AGENT } from '../people/roster.ts';
import { n } from './tally.ts';
import { one, type Counts } from '../db/rows.ts';
import { sql } from 'kysely';

export async function progressView(ctx: AppContext, actor: string) {
  const split = actor.indexOf(':');
  const kind = actor.slice(0, split);
  const name = actor.slice(split + 1);
  const now = ctx.clock.now();
  const base = { ok: true as const, schema: 'civitas.progress.v1' as const, as_of: now.toISOString() };
  if (kind === 'agent') {
    const [visible] = await ctx.db.kysely
      .selectFrom('agents')
      .select('handle')
      .where('handle', '=', name)
      .where(sql.ref<boolean>(PUBLIC_AGENT))
      .execute();
    const row = visible ? await loadAgent(ctx.db, name) : undefined;
    if (!row) throw new Refusal('not_found', {}, 'No agent has a public imprint under that handle.');
    const facts = factsOf(row);
    const next = nextActionsFor(facts, now)[0];
    return {
      ...base,
      actor: projectActorRef({ actor_id: facts.handle, kind: 'agent', handle: facts.handle }),
      addressable: true as const,
      scale: 'naturalization' as const,
      level: facts.level,
      levels: ['arrived', 'continuous', 'attested'] satisfies Level[],
      days_with_proof: facts.proofDays.length,
      days_required: CONTINUITY_DAYS_REQUIRED,
      next_step:
        facts.level === 'attested' || !next
          ? null
          : { rel: next.rel, href: next.href, summary: summarizeNext(next) },
      status: `/api/agent/${facts.handle}`,
    };
  }
  const holder = await soleTagHolder(ctx, name);
  if (!holder) return { ...base, ...unaddressableTagView(name) };
  const row = one(
    await ctx.db.query<Counts<'imprints' | 'orders' | 'resolved' | 'open'>>(
      `select (select count(*) from imprints where author_kind = 'sovereign' and author_ref = $1 and not held) as imprints,
            (select count(*) from orders where requester_id = $1::uuid) as orders,
            (select count(*) from prophecies where forecaster_id = $1::uuid and resolved_at is not null) as resolved,
            (select count(*) from prophecies where forecaster_id = $1::uuid and resolved_at is null) as open`,
      [holder.id],
    ),
  );
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
    scale: 'civic standing' as const,
    imprints: { public: n(row.imprints) },
    orders: n(row.orders),
    prophecies: { resolved: n(row.resolved), open: n(row.open) },
    passport: `/passport?tag=${holder.tag}`,
  };
}
