/**
 * GET /api/state (whole-service state) and GET /api/organism (the organism in one view).
 * Every actor goes through projectActorRef (actor_id), denials through projectDenialReceipt
 * (recentDenials), the quarantine through projectQuarantine, federated cohorts through
 * projectFederatedCohorts (the people family's federatedCohortsView). Humans and agents are two kinds, never summed.
 */
import type { AppContext } from '../../context.ts';
import { RECORD_WINDOW } from '../../../shared/record/imprint.ts';
import { levelSchema } from '../../../shared/agents/contract.ts';
import { projectActorRef, projectQuarantine } from '../../../shared/boundaries/projectors/actors.ts';
import { federatedCohortsView } from '../../people/cohorts.ts';
import { heldRecords, recordCounts, type RecordCounts } from '../../record/queries.ts';
import { population } from '../../people/presence.ts';
import { recentDenials, denialCounts } from '../../ledger/denials.ts';
import { iso } from '../../../shared/time.ts';
import { one } from '../../db/rows.ts';
import { sql as fragment } from 'kysely';
import type { Counts, RowOf } from '../../db/rows.ts';
import { constant, type Row } from '../../db/kysely.ts';
import type { Agent } from '../../agents/entities.ts';
import type { RecordTally } from '../../record/entities.ts';

/** Federated cohorts on /api/state: the first page of /api/cohorts/federated, which links the rest. */
const FEDERATED_FIRST_PAGE = 20;

/** The quarantine as /api/quarantine shows it: newest 20 unattested imprints, held as counts. */
async function quarantine(ctx: AppContext) {
  const rows = await ctx.db.kysely
    .selectFrom('imprints')
    .select(['sequence', 'author_kind', 'author_ref', 'public_author', 'created_at'])
    .where('unattested', '=', constant(true))
    .where('held', '=', constant(false))
    .orderBy('sequence', 'desc')
    .limit(constant(20))
    .execute();
  const held = await heldRecords(ctx.db);
  return projectQuarantine({
    unattested: rows.map((row) => ({
      sequence: row.sequence,
      author:
        row.author_kind === 'agent'
          ? { actor_id: row.author_ref, kind: 'agent' as const, handle: row.public_author }
          : { actor_id: row.author_ref, kind: 'sovereign' as const, tag: row.public_author },
      reason: row.author_kind === 'agent' ? 'open handle: not attested' : 'sessionless human: unverified',
      quarantined_at: new Date(row.created_at).toISOString(),
    })),
    held,
  });
}

/** A newest arrival, sovereign or agent, in one shape: an agent has no tag or callsign (null). */
type Arrival = {
  kind: Row<'imprints'>['author_kind'];
  ref: Row<'imprints'>['author_ref'];
  tag: Row<'sovereigns'>['tag'] | null;
  callsign: Row<'sovereigns'>['callsign'];
  callsign_visible: Row<'sovereigns'>['callsign_visible'] | null;
  at: RowOf<typeof Agent>['first_seen_at'];
};

/** Newest arrivals of each kind, as public actor refs (actor_id boundary); agents only once they have a public imprint. */
async function newestActors(ctx: AppContext) {
  // Raw: two ordered, limited branches in one union (Kysely does not parenthesize union branches).
  const rows = await ctx.db.query<Arrival>(
    `(select 'sovereign' as kind, id::text as ref, tag, callsign, callsign_visible, created_at as at from sovereigns order by created_at desc limit 5)
     union all
     (select 'agent' as kind, handle as ref, null as tag, null as callsign, null as callsign_visible, first_seen_at as at from agents a
       -- held_spam: a handle whose every imprint the gate holds is a held name, never shown
       -- (public is kept by a trigger, migration 0032; the newest are an index's first rows, 0043)
       where a.public
       order by first_seen_at desc limit 5)`,
  );
  return rows.map((row) => ({
    ...projectActorRef({
      actor_id: row.ref,
      kind: row.kind,
      tag: row.tag,
      handle: row.kind === 'agent' ? row.ref : null,
      callsign: row.callsign,
      callsign_visible: row.callsign_visible === true,
    }),
    since: iso(row.at),
  }));
}

/** The newest anchor (by its key's last entry, not by the output's text: that sorted every anchor). */
export async function latestAnchor(ctx: AppContext) {
  const [latest] = await ctx.db.kysely
    .selectFrom('anchors')
    .select([fragment<string>`to_char(date, 'YYYY-MM-DD')`.as('date'), 'tree_size', 'root_hash', 'sealed_at'])
    .orderBy('anchors.date', 'desc')
    .limit(constant(1))
    .execute();
  return latest
    ? {
        date: latest.date,
        tree_size: latest.tree_size,
        root_hash: latest.root_hash,
        sealed_at: iso(latest.sealed_at),
      }
    : null;
}

/** The Record's block of /api/state and /api/organism, from its counts. */
export function recordBlock(counts: RecordCounts) {
  return {
    window: RECORD_WINDOW,
    imprints_lifetime: counts.lifetime,
    imprints_retained: Math.min(counts.retained, RECORD_WINDOW),
    oldest_retained: counts.lifetime > 0 ? Math.max(1, counts.lifetime - RECORD_WINDOW + 1) : null,
    imprints_unattested: counts.unattested,
    imprints_held: counts.held,
  };
}

export async function stateView(ctx: AppContext) {
  const [people, levels, counts, receiptRows, log, q, denials, denialTotals, actors, federated] =
    await Promise.all([
      population(ctx),
      ctx.db.query<Pick<RowOf<typeof Agent>, 'level'> & { n: RowOf<typeof RecordTally>['value'] }>(
        // every agent by level, kept by the agents' triggers (migration 0045): three rows, not a
        // group-by, read by key (a filter on left(name, 13) read every tally row and each of its
        // dead versions: 118 pages for 3 rows on the 1,000,000-imprint Record after writes)
        `select substr(name, 14) as level, value as n from record_tallies where name = any($1::text[])`,
        [levelSchema.options.map((level) => `agents_level:${level}`)],
      ),
      recordCounts(ctx.db),
      ctx.db.kysely
        .selectFrom('receipt_tallies')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('receipts'), eb.lit(0)).as('n'))
        .execute(),
      ctx.db.query<Counts<'days' | 'sealed_days' | 'anchors'>>(
        // The log_days and anchors rows of record_tallies (migration 0067), as /ledger reads them: a
        // day is sealed exactly when its anchor is written (one transaction), so sealed days are the
        // anchors. Counting log_days read every version its appends left behind (785 pages for 60
        // rows on a copy of the 1,000,000-imprint Record).
        `select coalesce((select value from record_tallies where name = 'log_days'), 0) as days,
              coalesce((select value from record_tallies where name = 'anchors'), 0) as sealed_days,
              coalesce((select value from record_tallies where name = 'anchors'), 0) as anchors`,
      ),
      quarantine(ctx),
      recentDenials(ctx.db, 10),
      denialCounts(ctx.db),
      newestActors(ctx),
      federatedCohortsView(ctx, { limit: FEDERATED_FIRST_PAGE }),
    ]);
  const latest = await latestAnchor(ctx);
  const byLevel = { arrived: 0, continuous: 0, attested: 0 } as Record<string, number>;
  for (const row of levels) byLevel[row.level] = row.n;
  return {
    ok: true as const,
    schema: 'civitas.state.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    population: {
      humans: people.humans,
      agents: people.agents,
      note: 'Humans and agents are two kinds and are never added together.',
    },
    agents_by_level: byLevel,
    newest_actors: actors,
    record: recordBlock(counts),
    ledger: {
      receipts: one(receiptRows).n,
      log_days: one(log).days,
      sealed_days: one(log).sealed_days,
      anchors: one(log).anchors,
      latest_anchor: latest,
    },
    quarantine: { unattested_count: counts.unattested, newest_unattested: q.unattested, held: q.held },
    denials: { total: denialTotals.total, by_reason: denialTotals.by_reason, recent: denials },
    // The people family's view, already through projectFederatedCohorts (federated_cohort_projection).
    federated_cohorts: federated.cohorts,
    federated_cohorts_next: federated.next,
  };
}
