import { Migration } from '@mikro-orm/migrations';

/**
 * The foundation schema: sovereigns, agents, the Record (500-body window with a gap-free
 * lifetime sequence), receipts and the per-day log. SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0001Foundation extends Migration {
  override name = 'Migration0001Foundation';

  override up(): void {
    // Keys the service generates once and every process shares (tag secret, signing keys).
    this.addSql(`create table service_keys (
      name text primary key,
      value text not null,
      created_at timestamptz not null default now()
    )`);
    this.addSql(`create table sovereigns (
      id uuid primary key,
      tag char(4) not null,
      callsign text,
      callsign_visible boolean not null default false,
      key_hash text unique,
      email text,
      email_verified_at timestamptz,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz
    )`);
    this.addSql(`create index sovereigns_tag on sovereigns (tag)`);

    this.addSql(`create table agents (
      handle text primary key,
      secret_hash text not null,
      level text not null default 'arrived',
      first_seen_at timestamptz not null,
      last_seen_at timestamptz not null,
      attested_by uuid references sovereigns(id) on delete set null,
      attested_at timestamptz,
      relay_token_hash text,
      imprints_accepted integer not null default 0,
      imprints_quarantined integer not null default 0
    )`);
    this.addSql(`create table agent_proof_days (
      handle text not null references agents(handle) on delete cascade,
      day date not null,
      primary key (handle, day)
    )`);

    // The Record. `sequence` comes from record_counter, never from a sequence object:
    // a counter row taken under lock is what keeps numbers gap-free under concurrent writers.
    this.addSql(`create table record_counter (id smallint primary key, value bigint not null)`);
    this.addSql(`insert into record_counter (id, value) values (1, 0)`);
    this.addSql(`create table imprints (
      sequence bigint primary key,
      kind text not null,
      body text,
      author_kind text not null,
      author_ref text not null,
      public_author text not null,
      created_at timestamptz not null,
      unattested boolean not null,
      held boolean not null default false,
      held_reason text,
      reply_to bigint,
      receipt_id text not null,
      search tsvector generated always as (to_tsvector('simple', coalesce(body, ''))) stored
    )`);
    this.addSql(`create index imprints_search on imprints using gin (search)`);
    this.addSql(`create index imprints_author on imprints (author_kind, author_ref)`);
    this.addSql(`create index imprints_retained on imprints (sequence) where body is not null`);

    // Receipts are leaves of a per-UTC-day Merkle tree; log_days.size hands out leaf indexes.
    this.addSql(`create table log_days (
      date date primary key,
      size integer not null default 0,
      sealed_at timestamptz
    )`);
    this.addSql(`create table receipts (
      id text primary key,
      step text not null,
      subject text not null,
      recorded_at timestamptz not null,
      leaf_hash text not null,
      log_date date not null,
      leaf_index integer not null,
      unique (log_date, leaf_index)
    )`);
  }
}
