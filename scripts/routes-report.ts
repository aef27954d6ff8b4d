/**
 * `npm run routes`: how many of the published route shapes are real, family by family.
 * Builds the app in process (embedded in-memory database) and reads the same truth as /atlas.
 */
import { buildApp } from '../api/app.ts';
import { atlas } from '../api/discovery/atlas.ts';
import { openDatabase } from '../api/db/database.ts';

const db = await openDatabase({});
const app = await buildApp({ db, config: { dataDir: '/nonexistent' } });
await app.ready();
const report = atlas(app.realisations);
await app.close();
await db.close();

const verbose = process.argv.includes('--list');
const width = Math.max(...Object.keys(report.families).map((f) => f.length));
console.log('family'.padEnd(width), ' real / total');
for (const [family, counts] of Object.entries(report.families).sort()) {
  console.log(family.padEnd(width), String(counts.real).padStart(5), '/', counts.total);
}
if (verbose) {
  for (const route of report.routes)
    console.log(route.real ? 'real ' : '501  ', route.methods.join(','), route.path);
}
console.log('');
console.log(`routes real: ${report.real} of ${report.total} published route shapes`);
console.log(`not implemented (501): ${report.not_implemented}`);
