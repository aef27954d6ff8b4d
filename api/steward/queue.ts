import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { one, type Counts, type RowOf } from '../db/rows.ts';
import type { Imprint, ImprintReport } from '../record/entities.ts';
import { HOLD_REASONS, type HoldRule } from '../../shared/boundaries/projectors/spam.ts';
import { TRIAGE_ACTIONS } from './triage.ts';
import { iso } from '../../shared/time.ts';

const reasonOf = (rule: string | null) =>
  HOLD_REASONS[(rule && Object.hasOwn(HOLD_REASONS, rule) ? rule : 'other') as HoldRule];

/**
 * Sizes of the steward's queues (raw counts: these surfaces are steward-only), without a count of
 * every held imprint: the held and the open reports are tallies kept by triggers (`imprints_held`,
 * migration 0022; `imprint_reports_open`, migration 0086), and the kept held are counted from the
 * stewards' keep_held decisions, which grow with what stewards do, not with the Record.
 */
export async function queueSizes(sql: Sql) {
  const row = one(
    await sql.query<Counts<'held' | 'kept_held' | 'open_reports'>>(
      `select coalesce((select value from record_tallies where name = 'imprints_held'), 0) as held,
            (select count(distinct a.sequence) from steward_actions a join imprints i on i.sequence = a.sequence
              where a.action = 'keep_held' and i.held) as kept_held,
            coalesce((select value from record_tallies where name = 'imprint_reports_open'), 0) as open_reports`,
    ),
  );
  return {
    held_untriaged: row.held - row.kept_held,
    kept_held: row.kept_held,
    open_reports: row.open_reports,
  };
}

/** A held imprint as heldQueue selects it, with its count of open reports. */
type HeldRow = Pick<
  ImprintColumns,
  | 'sequence'
  | 'kind'
  | 'body'
  | 'author_kind'
  | 'public_author'
  | 'unattested'
  | 'held_reason'
  | 'created_at'
  | 'receipt_id'
> & {
  open_reports: number;
};

/** An open report as heldQueue selects it, beside what the steward sees of the imprint. */
type ReportRow = Pick<
  RowOf<typeof ImprintReport>,
  'id' | 'sequence' | 'reason' | 'detail' | 'reporter_kind' | 'created_at' | 'receipt_id'
> &
  Pick<ImprintColumns, 'held' | 'unattested' | 'body' | 'author_kind' | 'public_author'>;
type ImprintColumns = RowOf<typeof Imprint>;

/**
 * GET /steward/held: held imprints not yet kept held, and open reports, WITH bodies (stewards need
 * them to decide). Steward-only and `private, no-store`. The author appears in its public form
 * (handle or tag, as the imprint claimed it); raw ids and reporters' identities never do: a
 * report shows only the kind of reporter.
 */
export async function heldQueue(ctx: AppContext, options: { limit: number }) {
  const [sizes, held, reports] = await Promise.all([
    queueSizes(ctx.db),
    ctx.db.query<HeldRow>(
      `select i.sequence, i.kind, i.body, i.author_kind, i.public_author, i.unattested, i.held_reason, i.created_at, i.receipt_id,
              (select count(*) from imprint_reports r where r.sequence = i.sequence and r.status = 'open') as open_reports
         from imprints i
        where i.held and not exists (select 1 from steward_actions a where a.sequence = i.sequence and a.action = 'keep_held')
        order by i.sequence asc limit $1`,
      [options.limit],
    ),
    ctx.db.query<ReportRow>(
      `select r.id, r.sequence, r.reason, r.detail, r.reporter_kind, r.created_at, r.receipt_id,
              i.held, i.unattested, i.body, i.author_kind, i.public_author
         from imprint_reports r join imprints i on i.sequence = r.sequence
        where r.status = 'open' order by r.created_at asc, r.id asc limit $1`,
      [options.limit],
    ),
  ]);
  return {
    ok: true as const,
    schema: 'civitas.steward-held.v1' as const,
    generated_at: ctx.clock.now().toISOString(),
    counts: sizes,
    held: held.map((row) => ({
      target: `imprint:${row.sequence}`,
      sequence: row.sequence,
      kind: row.kind,
      body: row.body,
      body_retained: row.body !== null,
      author: { kind: row.author_kind, name: row.public_author },
      unattested: row.unattested,
      rule: row.held_reason ?? 'other',
      reason: reasonOf(row.held_reason),
      recorded_at: iso(row.created_at)!,
      receipt_id: row.receipt_id,
      open_reports: row.open_reports,
    })),
    reports: reports.map((row) => ({
      target: row.id,
      id: row.id,
      sequence: row.sequence,
      reason: row.reason,
      detail: row.detail,
      reporter: row.reporter_kind,
      filed_at: iso(row.created_at)!,
      receipt_id: row.receipt_id,
      imprint: {
        held: row.held,
        unattested: row.unattested,
        body: row.body,
        body_retained: row.body !== null,
        author: { kind: row.author_kind, name: row.public_author },
      },
    })),
    actions: {
      triage: {
        method: 'POST',
        href: '/sovereign/triage',
        fields: {
          target: 'imprint:<sequence> or rep_…',
          action: [...TRIAGE_ACTIONS],
          note: 'optional, private to stewards (at most 2000 characters)',
          return_to: 'optional local path',
        },
      },
    },
  };
}

/**
 * GET /steward/whispers: the archive of steward-only notes and events that exist — triage
 * decisions with their private notes. There is no separate whisper feature (steward-to-steward
 * messages); the answer says so rather than invent one.
 */
export async function whisperArchive(ctx: AppContext, options: { limit: number }) {
  const rows = await ctx.db.kysely
    .selectFrom('steward_actions')
    .select(['id', 'action', 'sequence', 'report_id', 'note', 'steward', 'outcome', 'receipt_id', 'at'])
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit)
    .execute();
  const total = one(
    await ctx.db.kysely
      .selectFrom('steward_actions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .execute(),
  );
  return {
    ok: true as const,
    schema: 'civitas.steward-whispers.v1' as const,
    visibility: 'steward',
    total: total.n,
    whispers: rows.map((row) => ({
      id: row.id,
      kind: `steward.triage.${row.action}`,
      subject: `imprint:${row.sequence}`,
      report_id: row.report_id,
      steward: row.steward,
      note: row.note,
      outcome: row.outcome,
      receipt_id: row.receipt_id,
      at: iso(row.at)!,
    })),
    scope:
      'Steward-only notes and events: every triage decision with its private note. Their receipts are public (step and subject only); the notes never leave this archive. Steward-to-steward messages do not exist as a feature.',
  };
}
