import { Migration } from '@mikro-orm/migrations';

/**
 * Resonance's list pages by key (issue 20): /api/resonance summed every author's replies of the
 * last 30 days and sorted them all on each request, a list that grows with the population
 * answered. The ranking is now computed by the `organism.observatory` job (a kept view, with its
 * `as_of`) into `resonance_ranks`: public refs only, their score, `sort_key` (minus the score) and
 * `position` in the ranking (two sovereigns may share a tag, so a ref is not unique), so (sort_key,
 * actor, position) ascending is the list's order (highest score first, refs A to Z within a score)
 * and a page is an index range. SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0078ResonanceRanks extends Migration {
  override name = 'Migration0078ResonanceRanks';

  override up(): void {
    this.addSql(`create table resonance_ranks (
      position bigint primary key,
      actor text not null,
      score bigint not null,
      sort_key bigint not null
    )`);
    this.addSql('create index resonance_ranks_order on resonance_ranks (sort_key, actor, position)');
    this.addSql('create index resonance_ranks_actor on resonance_ranks (actor)');
  }
}
