/** `npm run migrate`: apply pending migrations to DATABASE_URL (or the embedded database) and exit. */
import { loadConfigOrExit } from '../api/config.ts';
import { exitIfRefused } from '../api/db/startup.ts';
import { openDatabase } from '../api/db/database.ts';
import { exitIfLocked } from '../api/db/data-dir-lock.ts';

const config = loadConfigOrExit();
const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir })
  .catch(exitIfLocked)
  .catch(exitIfRefused);
await db.close();
console.log(`migrations applied (${config.databaseUrl ? 'PostgreSQL' : `embedded, ${config.dataDir}`})`);
