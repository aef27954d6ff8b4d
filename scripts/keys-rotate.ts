/**
 * `npm run keys:rotate`: retires the active signing key and makes a fresh Ed25519 key active, in
 * one transaction, on DATABASE_URL (or the embedded database, whose data directory must not be in
 * use). Running API processes pick the new key up within KEY_REFRESH_MS (api/keys.ts); the retired
 * key stays in the JWKS of /agents.json and keeps verifying what it signed (docs/operations.md).
 */
import { loadConfigOrExit } from '../api/config.ts';
import { exitIfRefused } from '../api/db/startup.ts';
import { openDatabase } from '../api/db/database.ts';
import { exitIfLocked } from '../api/db/data-dir-lock.ts';
import { KEY_REFRESH_MS, rotateSigningKey } from '../api/keys.ts';

const config = loadConfigOrExit();
const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir })
  .catch(exitIfLocked)
  .catch(exitIfRefused);
try {
  const { retired, active } = await rotateSigningKey(db);
  console.log(`retired signing key ${retired ?? '(none)'}; active signing key ${active}`);
  console.log(
    `running API processes sign with it within ${KEY_REFRESH_MS / 1000} s; a retired key stays in the JWKS`,
  );
} finally {
  await db.close();
}
