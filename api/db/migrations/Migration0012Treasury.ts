import { Migration } from '@mikro-orm/migrations';

/**
 * Treasury: checkout intents, provider events applied once (processed_events keyed by event id),
 * payments, entitlements (paid capabilities, separate from sessions and handles), Oracle reports,
 * strategies with the limits issuing authorizations are checked against, authorization decisions,
 * patrons and inscriptions. Holder refs are raw (sovereign uuid or agent handle) and never leave;
 * public surfaces show public refs only. SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0012Treasury extends Migration {
  override name = 'Migration0012Treasury';

  override up(): void {
    this.addSql(`create table treasury_intents (
      id text primary key,
      purpose text not null check (purpose in ('oracle', 'patronage', 'covenant', 'fund_evolution', 'inscription')),
      holder_kind text not null check (holder_kind in ('sovereign', 'agent')),
      holder_ref text not null,
      public_ref text not null,
      amount_cents bigint not null check (amount_cents > 0),
      currency text not null,
      uses integer not null default 0,
      detail jsonb not null default '{}'::jsonb,
      checkout_session_id text,
      status text not null default 'open' check (status in ('open', 'paid')),
      created_at timestamptz not null,
      paid_at timestamptz
    )`);
    this.addSql(
      `create index treasury_intents_holder on treasury_intents (holder_kind, holder_ref, created_at)`,
    );
    // A provider event is applied at most once: the primary key is the event id.
    this.addSql(`create table treasury_processed_events (
      event_id text primary key,
      type text not null,
      outcome text not null,
      processed_at timestamptz not null
    )`);
    this.addSql(`create table treasury_payments (
      id text primary key,
      event_id text not null unique,
      intent_id text references treasury_intents(id),
      purpose text not null,
      holder_kind text,
      holder_ref text,
      amount_cents bigint not null,
      currency text not null,
      customer_id text,
      received_at timestamptz not null
    )`);
    this.addSql(`create table treasury_entitlements (
      id text primary key,
      holder_kind text not null check (holder_kind in ('sovereign', 'agent')),
      holder_ref text not null,
      capability text not null,
      uses_total integer not null check (uses_total > 0),
      uses_left integer not null check (uses_left >= 0),
      payment_id text not null unique references treasury_payments(id),
      granted_at timestamptz not null
    )`);
    this.addSql(
      `create index treasury_entitlements_holder on treasury_entitlements (holder_kind, holder_ref, capability)`,
    );
    this.addSql(`create table oracle_reports (
      id text primary key,
      holder_kind text not null,
      holder_ref text not null,
      entitlement_id text not null references treasury_entitlements(id),
      report jsonb not null,
      receipt_id text not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index oracle_reports_holder on oracle_reports (holder_kind, holder_ref, created_at)`);
    this.addSql(`create table treasury_strategies (
      name text primary key,
      category text not null,
      description text not null,
      currency text not null,
      per_authorization_cents bigint not null check (per_authorization_cents >= 0),
      daily_cents bigint not null check (daily_cents >= 0)
    )`);
    this
      .addSql(`insert into treasury_strategies (name, category, description, currency, per_authorization_cents, daily_cents) values
      ('operations', 'infrastructure', 'Hosting, database and mail: the cost of keeping the service running.', 'usd', 20000, 50000),
      ('research', 'research', 'Small purchases for experiments the service runs on itself.', 'usd', 5000, 10000)`);
    this.addSql(`create table treasury_authorizations (
      authorization_id text primary key,
      event_id text,
      strategy text,
      amount_cents bigint not null,
      currency text not null,
      approved boolean not null,
      reason text not null,
      decided_at timestamptz not null
    )`);
    this.addSql(
      `create index treasury_authorizations_day on treasury_authorizations (strategy, decided_at) where approved`,
    );
    this.addSql(`create table treasury_patrons (
      holder_kind text not null,
      holder_ref text not null,
      public_ref text not null,
      listed boolean not null default false,
      units bigint not null default 0,
      since timestamptz not null,
      primary key (holder_kind, holder_ref)
    )`);
    this.addSql(`create table treasury_inscriptions (
      id text primary key,
      payment_id text not null unique references treasury_payments(id),
      body text not null,
      public_ref text not null,
      inscribed_at timestamptz not null
    )`);
  }
}
