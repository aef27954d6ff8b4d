import { Migration } from '@mikro-orm/migrations';

/**
 * Governance: proposals to the constitution, their cosigns and ratifications, and the articles
 * ratified proposals become. Sovereigns are referenced by raw id here (for one-per-sovereign
 * rules); every public surface shows them only by public tag (projectActorRef).
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0010Governance extends Migration {
  override name = 'Migration0010Governance';

  override up(): void {
    this.addSql(`create table governance_proposals (
      id text primary key,
      title text not null,
      body text not null,
      amends text,
      proposer_id uuid not null references sovereigns(id),
      state text not null default 'proposed' check (state in ('proposed', 'cosigned', 'ratified')),
      created_at timestamptz not null,
      receipt_id text not null,
      cosigned_at timestamptz,
      cosigned_receipt_id text,
      ratified_at timestamptz,
      article_id text unique
    )`);
    this.addSql(`create index governance_proposals_state on governance_proposals (state, created_at desc)`);
    this.addSql(`create table governance_cosigns (
      seq bigint generated always as identity,
      proposal_id text not null references governance_proposals(id),
      sovereign_id uuid not null references sovereigns(id),
      at timestamptz not null,
      receipt_id text not null,
      primary key (proposal_id, sovereign_id)
    )`);
    this.addSql(`create table governance_ratifications (
      seq bigint generated always as identity,
      proposal_id text not null references governance_proposals(id),
      sovereign_id uuid not null references sovereigns(id),
      at timestamptz not null,
      receipt_id text not null,
      primary key (proposal_id, sovereign_id)
    )`);
    this.addSql(`create table governance_articles (
      id text primary key,
      number integer not null unique,
      proposal_id text not null unique references governance_proposals(id),
      title text not null,
      body text not null,
      amends text,
      ratified_at timestamptz not null,
      receipt_id text not null
    )`);
  }
}
