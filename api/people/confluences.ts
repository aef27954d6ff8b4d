/**
 * Confluences: gatherings convened by a Sovereign, formed from what the Record already stores.
 *
 * A sovereign's root imprint (no `reply_to`) opens a day. The thread it starts (replies to it and
 * replies to those replies) becomes a confluence once at least five distinct others — humans or
 * agents — took part in it within that day; it is current until the day is over. Held and
 * unattested imprints never count (a handle can be minted at will; only attested voices gather),
 * nor does a root whose convener erased their identity.
 *
 * The record carries the convener's raw id, callsign and the internal slug built from the
 * callsign root; every surface shows it only through the confluence_slug projector.
 */
import type { AppContext } from '../context.ts';
import type { Row } from '../db/kysely.ts';
import type { DueItem } from '../../shared/due.ts';
import {
  projectConfluence,
  type ConfluenceRecord,
  type ConfluenceView,
} from '../../shared/boundaries/projectors/gatherings.ts';

export const CONFLUENCE_DAY_MS = 86_400_000;
/** Distinct participants (the convener aside) a thread needs within its day. */
export const CONFLUENCE_QUORUM = 5;
const TITLE_LENGTH = 60;

/** The root of a callsign: lower case, without a trailing number (`Harbor-7` → `harbor`). */
export function callsignRoot(callsign: string | null): string {
  const root = (callsign ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s._-]*\d+$/, '');
  return root || 'sovereign';
}

/** A confluence's title: the opening line of its root imprint, or its place in the Record once the body left the window. */
export function confluenceTitle(sequence: number, body: string | null): string {
  const line = ((body ?? '').split('\n')[0] ?? '').replace(/\s+/g, ' ').trim();
  if (!line) return `Gathering on imprint #${sequence}`;
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1).trimEnd()}…` : line;
}

/** A root imprint, its convener's public name, and the actors who joined its thread (space-separated). */
type Convened = Pick<Row<'imprints'>, 'sequence' | 'body'> &
  Pick<Row<'sovereigns'>, 'tag' | 'callsign' | 'callsign_visible'> & {
    convener_id: Row<'imprints'>['author_ref'];
    opened_at: Row<'imprints'>['created_at'];
    participants: string;
  };

/** Every confluence current at the service clock's now (opened within the last day), newest first. */
export async function currentConfluences(ctx: AppContext): Promise<ConfluenceRecord[]> {
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - CONFLUENCE_DAY_MS);
  const rows = await ctx.db.query<Convened>(
    `with recursive roots as (
       select i.sequence, i.author_ref, i.created_at, i.body, s.tag, s.callsign, s.callsign_visible
         -- only roots that have a reply: reply_counts (migration 0066) keeps one row per not-held
         -- imprint with a not-held reply, by its UTC day, so a busy day's unanswered roots are not probed
         from reply_counts rc
         -- each of those imprints by its key; \`offset 0\` keeps the planner from turning this into a
         -- scan of every sovereign root of the day hashed against reply_counts (on the 1,000,000-imprint
         -- Record: 780 pages and 3.6 ms, against 260 pages and 1.0 ms by key)
         cross join lateral (
           select i.sequence, i.author_ref, i.created_at, i.body from imprints i
            where i.sequence = rc.sequence and i.author_kind = 'sovereign' and i.reply_to is null
              and not i.held and not i.unattested and i.created_at > $1 and i.created_at <= $2
           offset 0
         ) i
         -- the convener by key (a cast of every sovereign's id to text would read them all)
         join sovereigns s on s.id = (case when i.author_ref ~ '^[0-9a-f-]{36}$' then i.author_ref::uuid end)
        where rc.day >= ($1::timestamptz at time zone 'UTC')::date and rc.day <= ($2::timestamptz at time zone 'UTC')::date
          and s.erased_at is null
     ), thread as (
       select r.sequence as root, r.created_at as opened_at, i.sequence, i.author_kind, i.author_ref
         from roots r join imprints i on i.reply_to = r.sequence
        where not i.held and not i.unattested and i.created_at <= $2 and i.created_at < r.created_at + interval '1 day'
       union all
       select t.root, t.opened_at, i.sequence, i.author_kind, i.author_ref
         from thread t join imprints i on i.reply_to = t.sequence
        where not i.held and not i.unattested and i.created_at <= $2 and i.created_at < t.opened_at + interval '1 day'
     )
     select r.sequence, r.author_ref as convener_id, r.created_at as opened_at, r.body, r.tag, r.callsign, r.callsign_visible,
            string_agg(distinct t.author_kind || ':' || t.author_ref, ' ') as participants
       from roots r join thread t on t.root = r.sequence
      where not (t.author_kind = 'sovereign' and t.author_ref = r.author_ref)
      group by r.sequence, r.author_ref, r.created_at, r.body, r.tag, r.callsign, r.callsign_visible
     having count(distinct t.author_kind || ':' || t.author_ref) >= $3
      order by r.created_at desc, r.sequence desc`,
    [since.toISOString(), now.toISOString(), CONFLUENCE_QUORUM],
  );
  return rows.map(toRecord);
}

function toRecord(row: Convened): ConfluenceRecord {
  const sequence = row.sequence;
  const opened = new Date(row.opened_at);
  const root = callsignRoot(row.callsign);
  return {
    id: `confluence-${sequence}`,
    slug: `${root}-${sequence}`,
    title: confluenceTitle(sequence, row.body),
    convener: {
      actor_id: row.convener_id,
      kind: 'sovereign',
      tag: row.tag,
      callsign: row.callsign,
      callsign_visible: row.callsign_visible,
      callsign_root: root,
    },
    callsign_root: root,
    starts_at: opened.toISOString(),
    ends_at: new Date(opened.getTime() + CONFLUENCE_DAY_MS).toISOString(),
    participant_ids: row.participants.split(' ').filter(Boolean),
  };
}

/** The current confluences through the confluence_slug projector: what every public surface shows. */
export async function confluenceViews(ctx: AppContext): Promise<ConfluenceView[]> {
  return (await currentConfluences(ctx)).map(projectConfluence);
}

/** The due feed's part: each current confluence this sovereign convened or joined comes due when its day ends. */
export async function confluenceDueItems(ctx: AppContext, sovereignId: string): Promise<DueItem[]> {
  const mine = `sovereign:${sovereignId}`;
  const items: DueItem[] = [];
  for (const record of await currentConfluences(ctx)) {
    const convened = record.convener.actor_id === sovereignId;
    if (!convened && !record.participant_ids.includes(mine)) continue;
    const view = projectConfluence(record);
    items.push({
      id: view.id,
      title: convened
        ? `Your confluence closes: ${view.title}`
        : `A confluence you joined closes: ${view.title}`,
      due_at: view.ends_at ?? view.starts_at,
      href: '/commons',
      detail: `Convened by ${view.convener} at ${view.starts_at}; humans ${view.participants.humans}, agents ${view.participants.agents} joined. It gathers for one day.`,
    });
  }
  return items;
}
