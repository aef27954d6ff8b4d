import { Migration } from '@mikro-orm/migrations';

/**
 * /api/abstentions without a scan (issue 20): for each proposal open to or past ratification (up
 * to 200) it counted the sovereigns who could ratify — a human-uniqueness receipt at or before the
 * cut-off (the ratification, or now), not erased, not the proposer — over every verified sovereign.
 * Kept instead, in the transactions that change them:
 * - tally `sovereigns_ratifiers`: sovereign rows verified and not erased, moved by row triggers
 *   that fire only when a verification or an erasure goes in, changes or goes out;
 * - `governance_proposals.eligible_ratifiers`: a ratified proposal's count, set when it is
 *   ratified (the tally, less those verified after the ratification — an index range, none in the
 *   ordinary course — less the proposer) and moved when a sovereign verified before it is erased,
 *   merged away or re-verified, or when its proposer row changes (an erasure moves it to the
 *   anonymous member first): at most one update of the ratified proposals per such change;
 * - an index of the verified, not erased sovereigns by verification time (that range, and an open
 *   proposal's count: the tally less any verified after now), and one of the proposals the view
 *   lists, in its order.
 * Erasure deletes a sovereign's row and inserts an anonymous member without a receipt, so every
 * such change passes through these triggers. SQL that PostgreSQL 15 and PGlite both run.
 */
const CONTRIBUTES = (id: string, at: string) =>
  `(select count(*) from sovereigns s where s.id = ${id} and s.erased_at is null and s.uniqueness_verified_at <= ${at})`;

export class Migration0075AbstentionTallies extends Migration {
  override name = 'Migration0075AbstentionTallies';

  override up(): void {
    this.addSql(`create index sovereigns_ratifiers on sovereigns (uniqueness_verified_at)
      where uniqueness_verified_at is not null and erased_at is null`);
    this
      .addSql(`create index governance_proposals_ratification on governance_proposals (cosigned_at desc, id desc)
      where state in ('cosigned', 'ratified')`);
    this.addSql('alter table governance_proposals add column eligible_ratifiers bigint');
    this.addSql(`insert into record_tallies (name, value)
      select 'sovereigns_ratifiers', count(*) from sovereigns where uniqueness_verified_at is not null and erased_at is null
      on conflict (name) do update set value = excluded.value`);
    this.addSql(`update governance_proposals p set eligible_ratifiers =
      (select count(*) from sovereigns s where s.uniqueness_verified_at is not null and s.erased_at is null
          and s.id <> p.proposer_id and s.uniqueness_verified_at <= p.ratified_at)
      where p.ratified_at is not null`);

    // A proposal ratified (its count, from the tally) or whose proposer row changed.
    this.addSql(`create function proposal_ratifiers() returns trigger language plpgsql as $$
      begin
        if new.ratified_at is null then
          new.eligible_ratifiers := null;
        elsif tg_op = 'INSERT' or old.ratified_at is distinct from new.ratified_at then
          new.eligible_ratifiers := (select value from record_tallies where name = 'sovereigns_ratifiers')
            - (select count(*) from sovereigns s where s.uniqueness_verified_at > new.ratified_at and s.erased_at is null)
            - ${CONTRIBUTES('new.proposer_id', 'new.ratified_at')};
        elsif old.proposer_id is distinct from new.proposer_id then
          new.eligible_ratifiers := new.eligible_ratifiers
            + ${CONTRIBUTES('old.proposer_id', 'new.ratified_at')}
            - ${CONTRIBUTES('new.proposer_id', 'new.ratified_at')};
        end if;
        return new;
      end $$`);
    this.addSql(`create trigger governance_proposals_ratifiers_in before insert on governance_proposals
      for each row when (new.ratified_at is not null) execute function proposal_ratifiers()`);
    this
      .addSql(`create trigger governance_proposals_ratifiers_change before update of ratified_at, proposer_id on governance_proposals
      for each row when (old.ratified_at is distinct from new.ratified_at or old.proposer_id is distinct from new.proposer_id)
      execute function proposal_ratifiers()`);

    // A sovereign who could ratify from `o` before the statement and from `n` after (null: could not).
    this.addSql(`create function sovereign_ratifier_change() returns trigger language plpgsql as $$
      declare
        o timestamptz;
        n timestamptz;
        sid uuid;
      begin
        if tg_op <> 'INSERT' and old.erased_at is null then o := old.uniqueness_verified_at; end if;
        if tg_op <> 'DELETE' and new.erased_at is null then n := new.uniqueness_verified_at; end if;
        if o is not distinct from n then return null; end if;
        sid := case when tg_op = 'DELETE' then old.id else new.id end;
        update record_tallies set value = value + (n is not null)::int - (o is not null)::int
         where name = 'sovereigns_ratifiers';
        update governance_proposals p
           set eligible_ratifiers = p.eligible_ratifiers + coalesce(n <= p.ratified_at, false)::int
                                                         - coalesce(o <= p.ratified_at, false)::int
         where p.eligible_ratifiers is not null and p.proposer_id <> sid
           and p.ratified_at >= least(coalesce(o, 'infinity'), coalesce(n, 'infinity'));
        return null;
      end $$`);
    this.addSql(`create trigger sovereigns_ratifiers_in after insert on sovereigns
      for each row when (new.uniqueness_verified_at is not null and new.erased_at is null)
      execute function sovereign_ratifier_change()`);
    this
      .addSql(`create trigger sovereigns_ratifiers_change after update of uniqueness_verified_at, erased_at on sovereigns
      for each row when (old.uniqueness_verified_at is distinct from new.uniqueness_verified_at or old.erased_at is distinct from new.erased_at)
      execute function sovereign_ratifier_change()`);
    this.addSql(`create trigger sovereigns_ratifiers_out after delete on sovereigns
      for each row when (old.uniqueness_verified_at is not null and old.erased_at is null)
      execute function sovereign_ratifier_change()`);
  }
}
