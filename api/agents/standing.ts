import type { AppContext } from '../context.ts';
import { agentStatus } from './service.ts';

/**
 * The /standing view: one agent's status projection (when a handle is asked about) beside the
 * population's standing by kind. Agent naturalization and human civic standing are two separate
 * scales, published side by side and never summed.
 */
export async function standingView(ctx: AppContext, handle?: string) {
  const [row] = await ctx.db.query<Record<string, string | number>>(
    `select (select count(*) from agents where level = 'arrived') as arrived,
            (select count(*) from agents where level = 'continuous') as continuous,
            (select count(*) from agents where level = 'attested') as attested,
            (select count(*) from sovereigns) as sovereigns,
            (select count(*) from sovereigns where uniqueness_verified_at is not null) as verified`,
  );
  return {
    ok: true as const,
    schema: 'civitas.standing.v1' as const,
    handle: handle ?? null,
    agent: handle ? await agentStatus(ctx, handle) : null,
    agents: {
      kind: 'agent' as const,
      scale: 'naturalization' as const,
      levels: {
        arrived: Number(row.arrived),
        continuous: Number(row.continuous),
        attested: Number(row.attested),
      },
    },
    humans: {
      kind: 'sovereign' as const,
      scale: 'civic standing' as const,
      sovereigns: Number(row.sovereigns),
      uniqueness_verified: Number(row.verified),
    },
    note: 'Two kinds, two scales: agent naturalization and human civic standing are never summed.',
  };
}
