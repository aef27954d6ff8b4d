import { Migration } from '@mikro-orm/migrations';

/**
 * The organism observing itself: per-process, per-minute request measurements (vitals) and
 * failures by lane and time only (never a message: failure_projection). SQL that PostgreSQL 15
 * and PGlite both run.
 */
export class Migration0009Organism extends Migration {
  override name = 'Migration0009Organism';

  override up(): void {
    // One row per API process and UTC minute; processes flush their own in-memory minutes.
    // `buckets` is a latency histogram over fixed bounds (api/plugins/vitals.ts LATENCY_BOUNDS_MS),
    // summed element-wise across processes when read.
    this.addSql(`create table vitals_minutes (
      process_id text not null,
      minute timestamptz not null,
      requests integer not null default 0,
      client_errors integer not null default 0,
      server_errors integer not null default 0,
      latency_sum_ms double precision not null default 0,
      latency_max_ms double precision not null default 0,
      buckets integer[] not null,
      primary key (process_id, minute)
    )`);
    this.addSql(`create index vitals_minutes_minute on vitals_minutes (minute)`);

    // One row per 5xx failure: which lane, when. Nothing else is kept.
    this.addSql(`create table failures (
      id bigserial primary key,
      lane text not null,
      at timestamptz not null
    )`);
    this.addSql(`create index failures_at on failures (at)`);
  }
}
