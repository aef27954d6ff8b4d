import type { FamilyDeclaration } from '../personal-data-contract.ts';
import { touched } from '../personal-data-contract.ts';
import type { Sql } from '../db/database.ts';
import { sql as fragment } from 'kysely';
import { constant } from '../db/kysely.ts';

/** A sovereign's resonance rows: by raw id, or by the tag a sessionless imprint claimed (as imprints are erased). */
const RESONANCE_OF = `author_kind = 'sovereign' and author_ref in ($1::text, 'unverified:' || $2::text)`;

/** /reconcile: the absorbed sovereign's replies received join the surviving one's, day by day. */
async function mergeResonance(tx: Sql, fromId: string, toId: string): Promise<number> {
  const moved = await tx.query(
    `with gone as (delete from resonance_days where author_kind = 'sovereign' and author_ref = $1 returning day, replies)
     insert into resonance_days (day, author_kind, author_ref, replies)
     select day, 'sovereign', $2, replies from gone order by day
     on conflict (day, author_kind, author_ref) do update set replies = resonance_days.replies + excluded.replies
     returning 1`,
    [fromId, toId],
  );
  return moved.length;
}

/** People: counts, replies a person's imprints received, and feedback relayed by federation peers (authored elsewhere, named by the peer). */
export const peoplePersonalData: FamilyDeclaration = {
  family: 'people',
  tables: [
    {
      table: 'federation_relays',
      personal: {
        author: "the author's ref on the peer service",
        body: 'words a person wrote on the peer service',
      },
      impersonal: ['id', 'peer', 'jti', 'topic', 'receipt_id'],
      notExported: 'authored on a peer, by no local sovereign',
      disposition: 'keep',
      keptWords: ['body'],
      why: 'Kept: authored by people of a federation peer, never by a local sovereign; the peer answers for them (a local erasure cannot name them).',
    },
    {
      table: 'federated_cohort_counts',
      personal: {},
      impersonal: ['peer', 'kind'],
      disposition: 'keep',
      why: 'Remote authors per peer, month of first relay and kind (kept by the database); counts, no person.',
    },
    {
      table: 'federation_peer_relays',
      personal: {},
      impersonal: ['peer'],
      disposition: 'keep',
      why: 'Relays per peer and when the newest arrived (kept by the database); counts, no person.',
    },
    {
      table: 'census_snapshots',
      personal: {},
      impersonal: ['receipt_id'],
      disposition: 'keep',
      why: 'Daily counts; no person.',
    },
    {
      table: 'arrival_days',
      personal: {},
      impersonal: ['kind'],
      disposition: 'keep',
      why: 'Arrivals per day and kind (kept by the database); counts, no person.',
    },
    {
      table: 'resonance_days',
      personal: {
        author_ref: "the raw id of the author whose imprints were answered (an agent's handle for agents)",
      },
      impersonal: ['author_kind'],
      holder: { column: 'author_ref', kind: 'author_kind', merge: mergeResonance },
      disposition: 'erase',
      why: "Deleted: the replies the person's imprints received per day (the imprints stay, unattributed).",
    },
    {
      table: 'resonance_ranks',
      personal: { actor: "a sovereign's public ref (sovereign:<tag>) while their imprints are answered" },
      impersonal: [],
      notExported: 'derived each minute from resonance_days, which the export gives as replies_received',
      disposition: 'erase',
      why: 'Deleted: the ranking the job keeps names the tag until its next run, so erasure removes the row at once.',
    },
  ],
  async export(sql, subject) {
    const rows = await sql.kysely
      .selectFrom('resonance_days')
      .select([fragment<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), 'replies'])
      .where('author_kind', '=', constant('sovereign'))
      .where('author_ref', 'in', [subject.id, `unverified:${subject.tag}`])
      .orderBy('resonance_days.day')
      .execute();
    return { replies_received: rows.map((r) => ({ day: r.day, replies: r.replies })) };
  },
  async erase(tx, subject) {
    return {
      resonance_days: await touched(tx, `delete from resonance_days where ${RESONANCE_OF}`, [
        subject.id,
        subject.tag,
      ]),
      resonance_ranks: await touched(tx, 'delete from resonance_ranks where actor = $1', [
        `sovereign:${subject.tag}`,
      ]),
    };
  },
};
