/**
 * The kept self-knowledge of a seeded Record brought up to date, as the job runner keeps it on a
 * service that has lived: the verification run (organism.vigilance) repeated until every walk's
 * frontier has verified everything stored, the discrimination result computed once, the
 * prevention experiment's window counted, and the tables vacuumed as autovacuum would have. Without
 * it a fresh seed has nothing kept, and the first request of a self-knowledge view would run the
 * first verification step inline: what the bench would measure is that one step, not the view.
 *
 * Called at the end of `npm run seed:scale`; on a Record seeded before, run it alone:
 * `DATABASE_URL=… CIVITAS_ORIGIN=… node scripts/seed-scale/keep.ts`.
 */
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.ts';
import { loadConfig } from '../../api/config.ts';
import { openDatabase, type Database } from '../../api/db/database.ts';
import { censusHost } from '../../api/boundaries/live-probes.ts';
import { knowledgeRun, keptKnowledge } from '../../api/organism/checks/knowledge.ts';
import { discriminationJob } from '../../api/organism/checks/discrimination.ts';
import { recordJobRun } from '../../api/jobs/runs.ts';
import { countPrevention } from '../../api/organism/experiments/prevention-counts.ts';

/** Items per walk and run here: larger than the job's batch, so a big Record catches up in fewer runs. */
const CATCH_UP_BATCH = 100_000;

/** The tallies every imprint batch rewrites (migration 0082): a few dozen rows each. */
const HOT_TALLIES =
  'record_counter, record_tallies, receipt_tallies, log_days, arrival_days, imprint_days, imprint_hours_of_day';

/**
 * What autovacuum has done on a Record that has lived: dead index entries of evicted bodies gone,
 * BRIN ranges summarized, the visibility map set (a bulk load leaves none of it). And the hot
 * tallies rewritten: the seed's long transactions kept their dead row versions from being pruned,
 * leaving hundreds of pages for a few dozen rows (arrival_days: 1,412 pages for 120 rows on the
 * 1,000,000-imprint Record), which a service whose autovacuum kept up would not carry. On a pool
 * of its own without the statement timeout, as migrations run (embedded: on the app's own database).
 */
async function vacuum(own: Database): Promise<void> {
  // Embedded: the app's own database (one connection, no statement timeout; PGlite has no autovacuum).
  if (own.embedded) return vacuumTallies(own);
  const url = loadConfig().databaseUrl;
  if (!url) return;
  const db = await openDatabase({ url, migrate: false, pool: { max: 1, statementTimeoutMs: 0 } });
  try {
    await vacuumTallies(db);
  } finally {
    await db.close();
  }
}

async function vacuumTallies(db: Database): Promise<void> {
  await db.query(`vacuum full ${HOT_TALLIES}`);
  await db.query('vacuum (analyze)');
}

export async function keepUp(app: FastifyInstance): Promise<number> {
  const ctx = app.civitas;
  const host = censusHost(app);
  let runs = 0;
  for (;;) {
    const at = ctx.clock.now();
    await knowledgeRun(ctx, host, { batch: CATCH_UP_BATCH, wait: true });
    await recordJobRun(ctx, 'organism.vigilance', at, ctx.clock.now(), 'ok');
    runs++;
    const kept = await keptKnowledge(ctx, host);
    if (kept.trials.verification.walks.every((walk) => walk.complete)) break;
  }
  const at = ctx.clock.now();
  await discriminationJob(ctx);
  await recordJobRun(ctx, 'organism.discrimination', at, ctx.clock.now(), 'ok');
  // The prevention experiment's window counted whole once (migration 0082): the job's runs then
  // take in only what is new.
  await countPrevention(ctx);
  await vacuum(ctx.db);
  return runs;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const app = await buildApp({ site: false });
  try {
    const started = performance.now();
    const runs = await keepUp(app);
    console.log(
      `kept self-knowledge: ${runs} verification runs in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await app.close();
  }
}
