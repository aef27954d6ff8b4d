import { Migration } from '@mikro-orm/migrations';

/**
 * Governance: pledges to articles and axioms (with backers and reviews), court cases
 * opened against a steward triage decision, juror signatures, and the precedents final verdicts
 * set. Sovereigns are referenced by raw id (for one-per-sovereign rules); every public surface
 * shows them only by public tag (projectActorRef). Steward notes are never copied here.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0014GovernanceCourt extends Migration {
  override name = 'Migration0014GovernanceCourt';

  override up(): void {
    this.addSql(`create table governance_pledges (
      id text primary key,
      article text not null,
      sovereign_id uuid not null references sovereigns(id),
      body text,
      status text not null default 'active' check (status in ('active', 'upheld', 'lapsed')),
      created_at timestamptz not null,
      receipt_id text not null,
      reviewed_at timestamptz,
      review_receipt_id text
    )`);
    // One live (not lapsed) pledge per article per sovereign.
    this.addSql(
      `create unique index governance_pledges_live on governance_pledges (article, sovereign_id) where status <> 'lapsed'`,
    );
    this.addSql(`create index governance_pledges_created on governance_pledges (created_at desc, id desc)`);
    this.addSql(`create table governance_pledge_backs (
      seq bigint generated always as identity,
      pledge_id text not null references governance_pledges(id),
      sovereign_id uuid not null references sovereigns(id),
      at timestamptz not null,
      receipt_id text not null,
      primary key (pledge_id, sovereign_id)
    )`);
    this.addSql(`create table governance_pledge_reviews (
      seq bigint generated always as identity,
      pledge_id text not null references governance_pledges(id),
      reviewer_id uuid not null references sovereigns(id),
      outcome text not null check (outcome in ('upheld', 'lapsed')),
      at timestamptz not null,
      receipt_id text not null,
      primary key (pledge_id, reviewer_id, outcome)
    )`);

    this.addSql(`create table governance_court_cases (
      id text primary key,
      sequence bigint not null references imprints(sequence),
      triage_action_id text not null unique references steward_actions(id),
      opener_id uuid not null references sovereigns(id),
      reason text,
      state text not null default 'open' check (state in ('open', 'final')),
      outcome text check (outcome in ('uphold', 'overturn')),
      opened_at timestamptz not null,
      receipt_id text not null,
      final_at timestamptz,
      final_receipt_id text,
      precedent_id text unique
    )`);
    this.addSql(
      `create index governance_court_cases_opened on governance_court_cases (opened_at desc, id desc)`,
    );
    this.addSql(`create table governance_court_signatures (
      seq bigint generated always as identity,
      case_id text not null references governance_court_cases(id),
      sovereign_id uuid not null references sovereigns(id),
      verdict text not null check (verdict in ('uphold', 'overturn')),
      reason text not null,
      at timestamptz not null,
      receipt_id text not null,
      primary key (case_id, sovereign_id)
    )`);
    this.addSql(`create table governance_precedents (
      id text primary key,
      number integer not null unique,
      case_id text not null unique references governance_court_cases(id),
      holding text not null,
      set_at timestamptz not null,
      receipt_id text not null
    )`);
  }
}
