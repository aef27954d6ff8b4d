import { Migration } from '@mikro-orm/migrations';

/**
 * Orders (requested changes, their status history and seconds) and calibration (prophecies about
 * the service's own metrics, the service's seasonal prophecies, pacts and their stakes). Raw
 * sovereign ids stay in these tables; public surfaces show the public ref only. SQL that
 * PostgreSQL 15 and PGlite both run.
 */
export class Migration0011Calibration extends Migration {
  override name = 'Migration0011Calibration';

  override up(): void {
    this.addSql(`create table orders (
      id text primary key,
      title text not null,
      detail text not null default '',
      requester_id uuid,
      status text not null default 'recorded' check (status in ('recorded', 'accepted', 'applied', 'declined')),
      seconds integer not null default 0,
      created_at timestamptz not null,
      status_at timestamptz not null,
      receipt_id text not null
    )`);
    this.addSql(`create index orders_priority on orders (seconds desc, created_at)`);
    // Every status an order has had, 'recorded' first; steward doors (future) append to it.
    this.addSql(`create table order_status_history (
      order_id text not null references orders(id) on delete cascade,
      status text not null check (status in ('recorded', 'accepted', 'applied', 'declined')),
      note text,
      at timestamptz not null,
      receipt_id text,
      primary key (order_id, at, status)
    )`);
    this.addSql(`create table order_seconds (
      order_id text not null references orders(id) on delete cascade,
      sovereign_id uuid not null,
      created_at timestamptz not null,
      receipt_id text not null,
      primary key (order_id, sovereign_id)
    )`);

    this.addSql(`create table prophecies (
      id text primary key,
      forecaster_kind text not null check (forecaster_kind in ('service', 'sovereign')),
      forecaster_id uuid,
      metric text not null,
      comparator text not null check (comparator in ('gte', 'lt')),
      threshold bigint not null,
      probability double precision not null check (probability >= 0.01 and probability <= 0.99),
      made_at timestamptz not null,
      due_at timestamptz not null,
      season text,
      basis text,
      receipt_id text not null,
      resolved_at timestamptz,
      observed bigint,
      outcome boolean,
      resolution_receipt_id text
    )`);
    this.addSql(`create index prophecies_open_due on prophecies (due_at) where resolved_at is null`);
    this.addSql(`create index prophecies_resolved on prophecies (resolved_at) where resolved_at is not null`);
    // The service prophesies each metric once per season.
    this.addSql(
      `create unique index prophecies_service_season on prophecies (season, metric) where forecaster_kind = 'service'`,
    );

    this.addSql(`create table pacts (
      id text primary key,
      author_id uuid,
      title text not null,
      detail text not null default '',
      stake integer not null check (stake >= 1),
      made_at timestamptz not null,
      due_at timestamptz not null,
      status text not null default 'open' check (status in ('open', 'kept', 'broken')),
      resolved_at timestamptz,
      receipt_id text not null
    )`);
    this.addSql(`create index pacts_due on pacts (due_at)`);
    this.addSql(`create table pact_stakes (
      pact_id text not null references pacts(id) on delete cascade,
      sovereign_id uuid not null,
      side text not null check (side in ('kept', 'broken')),
      points integer not null check (points >= 1),
      created_at timestamptz not null,
      receipt_id text not null,
      primary key (pact_id, sovereign_id)
    )`);
  }
}
