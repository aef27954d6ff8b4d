/**
 * New handles arriving through the agent door (api/agents/agent-imprint.ts): their first rows,
 * inserted in the batch's lock step or, for a reply, once the gate has spoken, each public from its
 * first row when the gate lets its first imprint through.
 */
import type { Sql } from '../db/database.ts';
import { gateFirst, type GateVerdict } from '../../shared/record/gate.ts';
import type { RowOf } from '../db/rows.ts';
import type { Agent } from './entities.ts';
import { newContinuitySecret, sha256Hex } from './credentials.ts';
import { AGENT_COLUMNS, AGENT_FROM, type AgentProof, type AgentRow } from './service.ts';
import type { Draft } from '../record/sequencer-doors.ts';
import type { ImprintKind } from '../../shared/record/imprint.ts';

/** An agent's imprint as the agent door hands it to the sequencer. */
export interface AgentDraft extends Draft {
  kind: ImprintKind;
  proof: AgentProof;
}

/** Handles are locked (and new ones inserted) in sorted order, so concurrent batches never deadlock on them. */
const byHandle = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A new handle's row is public from the start when the gate lets its first imprint through
 * (`gateFirst`, known before any query): left to the imprints' trigger, it would be made public in
 * the same transaction, a second version of the row and a second run of every trigger on agents
 * for each new handle (migration 0089).
 */
const arrivals = (first: number) =>
  `insert into agents (handle, secret_hash, level, first_seen_at, last_seen_at, imprints_accepted, imprints_quarantined, public)
   select handle, secret_hash, 'arrived', at, at, 1, 1, public
     from unnest($${first}::text[], $${first + 1}::text[], $${first + 2}::timestamptz[], $${first + 3}::boolean[])
          with ordinality as n(handle, secret_hash, at, public, i)
    order by i
   on conflict (handle) do nothing returning handle`;
/** The new handles' rows from the lock step's second parameter on (its first: the handles to lock). */
const ARRIVALS_WITH_LOCK = arrivals(2);
/** The same rows on their own (a reply's new handle, once the gate has spoken). */
const ARRIVALS_ALONE = arrivals(1);

/**
 * New handles' rows, inserted in sorted order (see byHandle), each with a fresh continuity secret:
 * the secrets by handle, and the arrays the arrivals statement takes.
 */
function newArrivals(drafts: AgentDraft[], held: (draft: AgentDraft) => boolean) {
  const sorted = [...drafts].sort((a, b) => byHandle(a.authorRef, b.authorRef));
  const secrets = new Map(sorted.map((d) => [d.authorRef, newContinuitySecret()]));
  const params = [
    sorted.map((d) => d.authorRef),
    sorted.map((d) => sha256Hex(secrets.get(d.authorRef)!)),
    sorted.map((d) => d.at.toISOString()),
    sorted.map((d) => !held(d)),
  ];
  return { secrets, params };
}

/**
 * The lock step in one round trip: the batch's known handles locked `for update` (sorted), and
 * the handles not yet known inserted in the same statement — only for drafts that nothing after
 * the lock step can refuse (no `reply_to`: its target is checked later; the gate holds, never
 * refuses), so no handle arrives without its imprint. The lock reads the statement's snapshot,
 * which does not show the rows it inserts; a handle first imprinted by another transaction at the
 * same moment is in neither set, and admit refuses it with `conflict` as before.
 */
export async function lockOrArrive(
  tx: Sql,
  drafts: AgentDraft[],
): Promise<{ rows: Map<string, AgentRow>; arrived: Map<string, string> }> {
  const { secrets, params } = newArrivals(
    drafts.filter((d) => d.replyTo === null),
    (d) => gateFirst(d.body).held,
  );
  const rows = await tx.query<AgentRow & { arrived: boolean }>(
    `with arrived as (${ARRIVALS_WITH_LOCK}),
     locked as materialized (select ${AGENT_COLUMNS} ${AGENT_FROM} where a.handle = any($1::text[]) order by a.handle collate "C" for update of a)
     select l.*, false as arrived from locked l
     union all
     select handle, null, null, null, null, null, null, null, null, null, null, true from arrived`,
    [drafts.map((d) => d.authorRef).sort(byHandle), ...params],
  );
  const arrived = new Map(
    rows.filter((row) => row.arrived).map((row) => [row.handle, secrets.get(row.handle)!]),
  );
  see(rows.map((row) => row.handle));
  return { rows: new Map(rows.filter((row) => !row.arrived).map((row) => [row.handle, row])), arrived };
}

/**
 * Handles this process has seen stored (locked, or arrived through it): their next imprint goes
 * through the lock step, never `arriveAll`, whose insert would fail the batch. Bounded: when full it
 * starts again, and a handle it forgot costs its batch one rolled-back attempt. 100,000 handles of
 * at most 63 characters are under 15 MB of an API process's 400; no bench figure chose the number.
 */
const seen = new Set<string>();
const SEEN_MAX = 100_000;

function see(handles: Iterable<string>): void {
  for (const handle of handles) {
    if (seen.size >= SEEN_MAX) seen.clear();
    seen.add(handle);
  }
}

/**
 * May this draft's handle be taken as new without asking (docs/record.md, "Arrivals in one round
 * trip")? Only a first imprint as the lock step would insert it early (no reply), presenting no
 * proof (a new handle has no secret to prove), of a handle this process has not seen stored.
 */
export function mayArrive(draft: AgentDraft): boolean {
  const { continuity, relayToken } = draft.proof;
  return (
    draft.replyTo === null &&
    continuity === undefined &&
    relayToken === undefined &&
    !seen.has(draft.authorRef)
  );
}

/**
 * The lock step of a batch whose handles are all taken as new, sent without waiting: their rows
 * inserted as lockOrArrive inserts them, and the statement fails (division by zero, the whole
 * transaction with it) unless every one was inserted, i.e. none was stored already. Returns each
 * draft's continuity secret, in draft order.
 */
export async function arriveAll(tx: Sql, drafts: AgentDraft[]): Promise<string[]> {
  const { secrets, params } = newArrivals(drafts, (d) => gateFirst(d.body).held);
  await tx.send(`with arrived as (${ARRIVALS_ALONE}) select 1 / (count(*) = $5)::int from arrived`, [
    ...params,
    drafts.length,
  ]);
  see(secrets.keys());
  return drafts.map((d) => secrets.get(d.authorRef)!);
}

/** Inserts the first rows of new handles (already counting this imprint); returns the secret of each one stored. */
export async function insertArrivals(
  tx: Sql,
  entries: Array<{ draft: AgentDraft; verdict: GateVerdict }>,
): Promise<Map<string, string>> {
  if (entries.length === 0) return new Map();
  const verdicts = new Map(entries.map((e) => [e.draft, e.verdict]));
  const { secrets, params } = newArrivals(
    entries.map((e) => e.draft),
    (d) => verdicts.get(d)?.held === true,
  );
  const inserted = await tx.query<Pick<RowOf<typeof Agent>, 'handle'>>(ARRIVALS_ALONE, params);
  const stored = new Set(inserted.map((row) => row.handle));
  return new Map([...secrets].filter(([handle]) => stored.has(handle)));
}

/** A new handle's row as inserted: arrived, this one imprint, quarantined (an arrival is unattested). */
export function arrivedRow(handle: string, at: Date): AgentRow {
  return {
    handle,
    secret_hash: '',
    level: 'arrived',
    first_seen_at: at.toISOString(),
    last_seen_at: at.toISOString(),
    attested_by_tag: null,
    attested_at: null,
    relay_token_hash: null,
    imprints_accepted: 1,
    imprints_quarantined: 1,
    proof_days: [],
  };
}
