import { Migration } from '@mikro-orm/migrations';

/**
 * The orders the people views read in (issue 20): the newest sovereigns and public agents
 * (/api/state), and who was seen lately (/api/presence), each read as the first rows of an index
 * instead of a sort or a filter over every sovereign and agent. Sovereigns are written rarely, so
 * their indexes cost nothing that grows; the agents' index is partial to the public ones and its
 * key (first_seen_at) never changes after arrival, so the agent door's updates stay HOT-able.
 */
export class Migration0043PeopleOrders extends Migration {
  override name = 'Migration0043PeopleOrders';

  override up(): void {
    this.addSql('create index sovereigns_created_at on sovereigns (created_at)');
    this.addSql('create index sovereigns_last_seen_at on sovereigns (last_seen_at)');
    this.addSql('create index agents_public_first_seen on agents (first_seen_at) where public');
  }
}
