/**
 * GET /api/discrimination: outcome disparities between kinds and cohorts — the hold rate (the
 * spam gate) and the quarantine rate (unattested, kept from collective learning) of imprints, by
 * author kind and by the author's join-month cohort. k-anonymous: a group with fewer than 5
 * distinct authors publishes "fewer than 5" and no rates (anonymity_cardinality, cohort_projection:
 * a cohort is only its kind and join month, never a label or a member).
 */
import type { AppContext } from '../../context.ts';
import { K_ANONYMITY_THRESHOLD, kAnonymousCount } from '../../../shared/boundaries/k-anonymity.ts';

const rate = (part: number, whole: number) => Math.round((part / whole) * 10_000) / 10_000;

interface GroupRow {
  author_kind: string;
  month?: string | null;
  imprints: string | number;
  held: string | number;
  quarantined: string | number;
  authors: string | number;
}

function publish(row: GroupRow) {
  const authors = Number(row.authors);
  const imprints = Number(row.imprints);
  const kind = row.author_kind === 'agent' ? ('agent' as const) : ('sovereign' as const);
  const base = { kind, ...(row.month !== undefined ? { joined_month: row.month ?? 'unknown' } : {}) };
  if (authors < K_ANONYMITY_THRESHOLD) {
    return {
      ...base,
      authors: kAnonymousCount(authors),
      imprints: kAnonymousCount(0),
      published: false as const,
      hold_rate: null,
      quarantine_rate: null,
    };
  }
  return {
    ...base,
    authors,
    imprints,
    published: true as const,
    held: Number(row.held),
    quarantined: Number(row.quarantined),
    hold_rate: rate(Number(row.held), imprints),
    quarantine_rate: rate(Number(row.quarantined), imprints),
  };
}

function spread(groups: ReturnType<typeof publish>[], key: 'hold_rate' | 'quarantine_rate') {
  const values = groups.filter((g) => g.published).map((g) => g[key] as number);
  if (values.length < 2) return null;
  const max = Math.max(...values);
  const min = Math.min(...values);
  return {
    max,
    min,
    difference: Math.round((max - min) * 10_000) / 10_000,
    ratio: min === 0 ? null : Math.round((max / min) * 100) / 100,
  };
}

export async function discriminationProjection(ctx: AppContext) {
  const byKind = await ctx.db.query<GroupRow>(
    `select author_kind, count(*) as imprints, count(*) filter (where held) as held, count(*) filter (where unattested) as quarantined,
            count(distinct author_ref) as authors
       from imprints group by author_kind order by author_kind`,
  );
  const byCohort = await ctx.db.query<GroupRow>(
    `select i.author_kind, to_char(coalesce(a.first_seen_at, s.created_at) at time zone 'UTC', 'YYYY-MM') as month,
            count(*) as imprints, count(*) filter (where i.held) as held, count(*) filter (where i.unattested) as quarantined,
            count(distinct i.author_ref) as authors
       from imprints i
       left join agents a on i.author_kind = 'agent' and a.handle = i.author_ref
       left join sovereigns s on i.author_kind = 'sovereign' and s.id::text = i.author_ref
      group by 1, 2 order by 2 nulls last, 1`,
  );
  const kinds = byKind.map((row) => publish(row));
  const cohorts = byCohort.map((row) => publish(row));
  return {
    ok: true as const,
    schema: 'civitas.discrimination.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    k_anonymity: {
      threshold: K_ANONYMITY_THRESHOLD,
      rule: 'A group with fewer than 5 distinct authors shows "fewer than 5" and no counts or rates.',
    },
    outcomes: {
      hold_rate: "Share of a group's imprints the spam gate held.",
      quarantine_rate:
        "Share of a group's imprints kept from collective learning because they were unattested. Structural for agents: an open handle is quarantined until attested.",
    },
    by_kind: kinds,
    by_cohort: cohorts,
    disparities: {
      kinds: { hold_rate: spread(kinds, 'hold_rate'), quarantine_rate: spread(kinds, 'quarantine_rate') },
      cohorts: {
        hold_rate: spread(cohorts, 'hold_rate'),
        quarantine_rate: spread(cohorts, 'quarantine_rate'),
      },
    },
    basis:
      'Every stored imprint (the lifetime Record: kinds and outcomes outlive the body window). Cohort = the author\'s join month (agents: first seen; sovereigns: crossed); authors not matched to a stored identity form the "unknown" month.',
  };
}
