/**
 * Ascensions: handles that reached continuous or attested, newest first.
 */
import type { AppContext } from '../context.ts';
import { CONTINUITY_DAYS_REQUIRED } from '../../shared/agents/naturalization.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';
import { PUBLIC_AGENT } from '../people/roster.ts';
import { ISO, n } from './tally.ts';

export async function ascensionsView(ctx: AppContext) {
  const rows = await ctx.db.query<{
    handle: string;
    level: string;
    continuous_on: string | null;
    attested_at: string | null;
    proof_days: number;
  }>(
    `select a.handle, a.level,
            (select to_char(d.day, 'YYYY-MM-DD') from agent_proof_days d where d.handle = a.handle order by d.day offset ${CONTINUITY_DAYS_REQUIRED - 1} limit 1) as continuous_on,
            ${ISO('a.attested_at')} as attested_at,
            (select count(*) from agent_proof_days d where d.handle = a.handle) as proof_days
       from agents a where a.level in ('continuous', 'attested') and ${PUBLIC_AGENT.replaceAll('agents.', 'a.')}`,
  );
  const ascensions = rows
    .map((r) => {
      const latest =
        [r.attested_at, r.continuous_on]
          .filter((v): v is string => v !== null)
          .sort()
          .at(-1) ?? null;
      return {
        agent: projectActorRef({ actor_id: r.handle, kind: 'agent', handle: r.handle }),
        level: r.level as 'continuous' | 'attested',
        continuous_on: r.continuous_on,
        attested_at: r.attested_at,
        days_with_proof: n(r.proof_days),
        latest,
        status: `/api/agent/${r.handle}`,
      };
    })
    .sort((a, b) => (b.latest ?? '').localeCompare(a.latest ?? '') || a.agent.ref.localeCompare(b.agent.ref))
    .map(({ latest: _latest, ...rest }) => rest);
  return {
    ok: true as const,
    schema: 'civitas.ascensions.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    count: {
      continuous: ascensions.filter((a) => a.level === 'continuous').length,
      attested: ascensions.filter((a) => a.level === 'attested').length,
    },
    ascensions,
    rule: `A handle becomes continuous on the UTC day of its ${CONTINUITY_DAYS_REQUIRED}th day with proof (continuous_on); attested when a signed-in Sovereign attests it (attested_at). Newest ascension first.`,
  };
}
