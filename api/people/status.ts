import type { AppContext } from '../context.ts';
import { databaseCheck, APP_VERSION } from '../health/routes.ts';
import { recordCounts } from '../record/queries.ts';
import { RECORD_WINDOW } from '../../shared/record/imprint.ts';
import { population, presence } from './presence.ts';

/** The service status projection behind MCP `civitas_status`: every figure read live. */
export async function serviceStatus(ctx: AppContext) {
  const [database, people, record, here, receipts] = await Promise.all([
    databaseCheck(ctx),
    population(ctx),
    recordCounts(ctx.db),
    presence(ctx),
    ctx.db.query<{ n: string | number }>('select count(*) as n from receipts'),
  ]);
  return {
    ok: database.ok,
    version: APP_VERSION,
    database: { ok: database.ok, kind: database.kind },
    population: { humans: people.humans, agents: people.agents },
    record: { window: RECORD_WINDOW, imprints_lifetime: record.lifetime, imprints_retained: record.retained },
    receipts: Number(receipts[0].n),
    presence: here,
  };
}
