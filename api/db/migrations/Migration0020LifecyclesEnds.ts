import { Migration } from '@mikro-orm/migrations';

/**
 * Lifecycles that end: a pact's answer says who gave it (its author, a steward on the author's
 * behalf, or the lapse job after the grace period) with its own receipt, and each stake keeps its
 * settled payout; a checkout intent can wait for an asynchronous payment or record that it failed.
 * A stored failure says whether an outside provider failed (its lane's reason is then
 * provider_unavailable, not internal_error). SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0020LifecyclesEnds extends Migration {
  override name = 'Migration0020LifecyclesEnds';

  override up(): void {
    this.addSql(
      `alter table pacts add column resolved_by text check (resolved_by in ('author', 'steward', 'lapse'))`,
    );
    this.addSql(`alter table pacts add column resolution_receipt_id text`);
    this.addSql(`alter table pact_stakes add column payout integer`);
    // A provider's failure (external) is told apart from the runtime's own in /api/failures.
    this.addSql(`alter table failures add column external boolean not null default false`);
    this.addSql(`alter table treasury_intents drop constraint if exists treasury_intents_status_check`);
    this.addSql(
      `alter table treasury_intents add constraint treasury_intents_status_check check (status in ('open', 'awaiting_payment', 'payment_failed', 'paid'))`,
    );
  }
}
