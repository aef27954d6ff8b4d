import type { AppContext } from '../context.ts';
import { agentStatus } from './service.ts';
import { one, type Counts } from '../db/rows.ts';

/**
 * The population's standing without a scan (issue 20): every figure is a tally the database keeps
 * in the writers' transactions (agents by level: migration 0045; sovereign rows: 0022; those
 * holding a uniqueness receipt: 0068), read as one row each. A level no agent holds has no row yet.
 */
export const STANDING_COUNTS = `select ${tally('agents_level:arrived')} as arrived,
            ${tally('agents_level:continuous')} as continuous,
            ${tally('agents_level:attested')} as attested,
            ${tally('sovereigns')} as sovereigns,
            ${tally('sovereigns_verified')} as verified`;

/** The figures STANDING_COUNTS selects. */
export type StandingCounts = Counts<'arrived' | 'continuous' | 'attested' | 'sovereigns' | 'verified'>;

function tally(name: string): string {
  return `coalesce((select value from record_tallies where name = '${name}'), 0)`;
}

/**
 * The /standing view: one agent's status projection (when a handle is asked about) beside the
 * population's standing by kind. Agent naturalization and human civic standing are two separate
 * scales, published side by side and never summed.
 */
export async function standingView(ctx: AppContext, handle?: string) {
  const row = one(await ctx.db.query<StandingCounts>(STANDING_COUNTS));
  return {
    ok: true as const,
    schema: 'civitas.standing.v1' as const,
    handle: handle ?? null,
    agent: handle ? await agentStatus(ctx, handle) : null,
    agents: {
      kind: 'agent' as const,
      scale: 'naturalization' as const,
      levels: {
        arrived: row.arrived,
        continuous: row.continuous,
        attested: row.attested,
      },
    },
    humans: {
      kind: 'sovereign' as const,
      scale: 'civic standing' as const,
      sovereigns: row.sovereigns,
      uniqueness_verified: row.verified,
    },
    note: 'Two kinds, two scales: agent naturalization and human civic standing are never summed.',
  };
}
