/**
 * `npm run db:create`: creates the database DATABASE_URL names (on that server, through its
 * `postgres` maintenance database) when it does not exist, then applies the migrations. The
 * service itself never creates a database (api/db/startup.ts).
 */
import pg from 'pg';
import { loadConfigOrExit } from '../api/config.ts';
import { openDatabase } from '../api/db/database.ts';
import { describeDatabase } from '../api/db/startup.ts';

const config = loadConfigOrExit();
if (!config.databaseUrl) {
  console.error('db:create needs DATABASE_URL (the embedded database creates its data directory itself)');
  process.exit(1);
}
const target = new URL(config.databaseUrl);
const name = decodeURIComponent(target.pathname.slice(1));
if (!name) {
  console.error('DATABASE_URL names no database');
  process.exit(1);
}
const maintenance = new URL(config.databaseUrl);
maintenance.pathname = '/postgres';
const client = new pg.Client({ connectionString: maintenance.toString() });
await client.connect();
try {
  const { rows } = await client.query('select 1 from pg_database where datname = $1', [name]);
  if (rows.length) console.log(`the database ${describeDatabase(config.databaseUrl)} exists already`);
  else {
    await client.query(`create database "${name.replaceAll('"', '""')}"`);
    console.log(`created the database ${describeDatabase(config.databaseUrl)}`);
  }
} finally {
  await client.end();
}
const db = await openDatabase({ url: config.databaseUrl });
await db.close();
console.log('migrations applied');
