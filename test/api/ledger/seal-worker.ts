/**
 * A separate process for the two-process sealing test: opens its own connection pool to the given
 * PostgreSQL database, and on each IPC `{ seal: <iso now> }` runs sealDueDays with that clock and
 * answers with what it sealed.
 */
import { openDatabase } from '../../../api/db/database.ts';
import { loadServiceKeys } from '../../../api/keys.ts';
import { loadConfig } from '../../../api/config.ts';
import { sealDueDays } from '../../../api/ledger/sealing.ts';
import type { AppContext } from '../../../api/context.ts';

const url = process.env.SEAL_DATABASE_URL as string;
const db = await openDatabase({ url, migrate: false });
const keys = await loadServiceKeys(db);
let now = new Date();
const ctx: AppContext = {
  config: { ...loadConfig({}), origin: 'http://civitas.test' },
  db,
  clock: { now: () => new Date(now) },
  keys,
};

process.on('message', async (message: { seal?: string; exit?: boolean }) => {
  if (message.exit) {
    await db.close();
    process.exit(0);
  }
  if (!message.seal) return;
  now = new Date(message.seal);
  try {
    const result = await sealDueDays(ctx);
    process.send?.({
      pid: process.pid,
      ran: result.ran,
      sealed: result.sealed.map((a) => ({
        date: a.date,
        root_hash: a.root_hash,
        anchor_hash: a.anchor_hash,
      })),
    });
  } catch (error) {
    process.send?.({ pid: process.pid, error: (error as Error).message });
  }
});
process.send?.({ ready: String(process.pid) });
