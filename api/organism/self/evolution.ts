/**
 * GET /api/evolution (and /evolutions): how the service changed over time, from stored rows only —
 * the schema migrations applied to this deployment (`civitas_migrations.executed_at`) and the
 * articles ratified into the constitution (with the proposal behind each). Newest first.
 */
import type { AppContext } from '../../context.ts';
import type { MigrationRow } from '@mikro-orm/core';
import { sql as fragment } from 'kysely';

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

function migrationLabel(name: string): { number: number | null; label: string } {
  const match = /^Migration(\d{4})([A-Za-z0-9]*)$/.exec(name);
  if (!match) return { number: null, label: name };
  return {
    number: Number(match[1]),
    // Group 2 is not optional (it may be empty): a match always carries it.
    label: match[2]!.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase() || 'schema',
  };
}

export async function evolutionView(ctx: AppContext) {
  const [migrations, articles] = await Promise.all([
    // Raw: the migrator's own table, not an entity (its row is MikroORM's MigrationRow).
    ctx.db.query<Pick<MigrationRow, 'name'> & { at: string }>(
      `select name, to_char(executed_at at time zone 'UTC', ${ISO}) as at from civitas_migrations order by executed_at desc, id desc`,
    ),
    ctx.db.kysely
      .selectFrom('governance_articles')
      .select([
        'number',
        'title',
        'amends',
        'proposal_id',
        fragment<string>`to_char(ratified_at at time zone 'UTC', ${fragment.raw(ISO)})`.as('at'),
        'receipt_id',
      ])
      .orderBy('ratified_at', 'desc')
      .orderBy('number', 'desc')
      .execute(),
  ]);
  const changes = [
    ...migrations.map((m) => {
      const { number, label } = migrationLabel(m.name);
      return {
        kind: 'migration' as const,
        at: m.at,
        title: `Schema change ${number ?? ''} applied: ${label}`.replace('  ', ' '),
        migration: m.name,
        behind: {
          kind: 'release' as const,
          note: 'A schema change shipped with a release of the code (see /changelog); no proposal stands behind it.',
        },
      };
    }),
    ...articles.map((a) => ({
      kind: 'article' as const,
      at: a.at,
      title: `Article ${a.number} ratified: ${a.title}`,
      article: { number: a.number, title: a.title, amends: a.amends },
      behind: {
        kind: 'proposal' as const,
        proposal: a.proposal_id,
        receipt: a.receipt_id,
        links: { constitution: '/constitution', receipt: `/api/receipt/${a.receipt_id}` },
      },
    })),
  ].sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : 0));
  const byMonth = new Map<string, { month: string; migrations: number; articles: number }>();
  for (const change of changes) {
    const month = change.at.slice(0, 7);
    const entry = byMonth.get(month) ?? { month, migrations: 0, articles: 0 };
    if (change.kind === 'migration') entry.migrations++;
    else entry.articles++;
    byMonth.set(month, entry);
  }
  return {
    ok: true as const,
    schema: 'civitas.evolution.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    migrations: migrations.length,
    articles: articles.length,
    first_change_at: changes.at(-1)?.at ?? null,
    latest_change_at: changes[0]?.at ?? null,
    by_month: [...byMonth.values()],
    changes,
    rule: "Migrations are the schema changes applied to this deployment, when they ran; articles are the constitution's ratified changes with the proposal behind each. Nothing else is counted as an evolution.",
  };
}
