/**
 * `npm run seed:scale -- --imprints 1000000 --days 60 --agents 100000 --sovereigns 20000 [--embedded <dir>]`
 *
 * Builds on the configured database (DATABASE_URL, else the embedded one in CIVITAS_DATA_DIR; with
 * `--embedded <dir>`, the embedded one in that data directory whatever DATABASE_URL says) a Record that has lived
 * `days` UTC days up to now: day after day, sovereigns cross, agents arrive and return, imprints
 * are appended through the Record's own appendImprints (real receipts on each day's log), the
 * families' doors are used by a cast of sovereigns, and at each midnight the jobs run as the job
 * runner would (sealing with real anchors, calibration, pacts, dreams); the census backfills at
 * the end. The database must hold an empty Record. docs/scale.md says how long it takes.
 */
import { buildApp } from '../../api/app.ts';
import { REPO_ROOT } from '../../api/boundaries/inventory.ts';
import { readModuleGraph } from '../../api/boundaries/module-graph.ts';
import { loadConfig } from '../../api/config.ts';
import type { AppContext } from '../../api/context.ts';
import { openDatabase } from '../../api/db/database.ts';
import { sealDueDays } from '../../api/ledger/sealing.ts';
import { runCalibrationJob } from '../../api/calibration/job.ts';
import { lapseOverduePacts } from '../../api/calibration/pact-answers.ts';
import { runCensusJob } from '../../api/people/census.ts';
import { dreamJob } from '../../api/organism/themes/dreaming.ts';
import { recordJobRun } from '../../api/jobs/runs.ts';
import { TestableClock } from './clock.ts';
import { keepUp } from './keep.ts';
import { answerDuePacts, castOf, civicRound, signIn, witnessDay, type Cast } from './doors.ts';
import { appendDay, planDay } from './imprints.ts';
import { agentClass, parseSize, random, seedTarget, share } from './plan.ts';
import { arriveAgents, crossSovereigns, settleAgents, type SeedSovereign } from './population.ts';

const DAY = 86_400_000;

const target = seedTarget(process.argv.slice(2));
try {
  // The kept self-trials' boundaries census reads the build's module graph: without it (or with a
  // stale one) the seeded Record's boundaries trial is kept failed ("inventory not fully accounted").
  readModuleGraph(REPO_ROOT);
} catch (error) {
  console.error(
    `seed:scale: ${(error as Error).message} (the self-trials' census reads the graph: build first)`,
  );
  process.exit(1);
}
const size = parseSize(target.rest);
if (target.dataDir) {
  // Through the environment, so that every part of the seed (the app, keep.ts) reads the same database.
  process.env.CIVITAS_DATA_DIR = target.dataDir;
  delete process.env.DATABASE_URL;
}
const config = loadConfig();
const started = performance.now();
// Bulk statements (settling 100,000 agents, the census backfill, analyze) outlast a request's timeout.
const db = await openDatabase({
  url: config.databaseUrl,
  dataDir: config.dataDir,
  pool: { ...config.dbPool, statementTimeoutMs: 0 },
});
const [counter] = await db.query<{ value: string | number }>('select value from record_counter where id = 1');
if (Number(counter?.value ?? 0) > 0) {
  console.error('seed:scale writes a new Record: this database already holds imprints');
  await db.close();
  process.exit(1);
}
const clock = new TestableClock();
const app = await buildApp({
  db,
  clock,
  site: false,
  config: { rateReadsPerMin: 1_000_000_000, rateWritesPerMin: 1_000_000_000 },
});
await app.ready();
const ctx = app.civitas;
const next = random(20_261_126);
const realNow = Date.now();
const today = Math.floor(realNow / DAY) * DAY;
const sovereigns: SeedSovereign[] = [];
const returning: number[] = [];
let cast: Cast | undefined;
let lastSequence = 0;
let round = 0;
let agentsSoFar = 0;

/** The jobs of a midnight, as the runner runs them (each records its run). */
async function midnight(context: AppContext): Promise<void> {
  const jobs: [string, (c: AppContext) => Promise<unknown>][] = [
    ['ledger.seal', sealDueDays],
    ['calibration.resolve', runCalibrationJob],
    ['calibration.pacts-lapse', lapseOverduePacts],
    ['organism.dreaming', dreamJob],
  ];
  for (const [name, run] of jobs) {
    const at = context.clock.now();
    await run(context);
    await recordJobRun(context, name, at, context.clock.now(), 'ok');
  }
}

for (let d = 0; d < size.days; d++) {
  const dayStart = today - (size.days - 1 - d) * DAY;
  const dayEnd = d === size.days - 1 ? realNow - 60_000 : dayStart + DAY;
  const span = dayEnd - dayStart;
  const crossing = Math.max(share(size.sovereigns, size.days, d), d === 0 ? 12 : 0);
  sovereigns.push(...(await crossSovereigns(ctx, clock, crossing, dayStart + 1000, dayStart + span / 8)));
  cast ??= await castOf(app, sovereigns);

  const arrivals = share(size.agents, size.days, d);
  const arrivalAt = new Date(dayStart + span / 8);
  await arriveAgents(ctx, agentsSoFar, agentsSoFar + arrivals, arrivalAt, sovereigns);
  const drafts = planDay(
    next,
    share(size.imprints, size.days, d),
    dayStart + span / 8,
    dayEnd,
    {
      sovereigns,
      returning,
      arrivals: { first: agentsSoFar, end: agentsSoFar + arrivals, at: arrivalAt },
    },
    lastSequence,
  );
  const mid = dayStart + span / 2;
  const morning = drafts.filter((draft) => draft.at.getTime() < mid);
  const afternoon = drafts.slice(morning.length);
  if (morning.length > 0) lastSequence = await appendDay(ctx, morning);
  const heldIndex = morning.findIndex((draft) => draft.held);
  const held = heldIndex < 0 ? null : lastSequence - morning.length + 1 + heldIndex;

  clock.set(mid);
  await signIn(app, cast);
  await answerDuePacts(app, cast);
  for (let k = 0; k < size.actionsPerDay; k++) await civicRound(app, cast, round++, k === 0 ? held : null);
  if (afternoon.length > 0) lastSequence = await appendDay(ctx, afternoon);

  for (let i = agentsSoFar; i < agentsSoFar + arrivals; i++)
    if (agentClass(i) !== 'arrival') returning.push(i);
  agentsSoFar += arrivals;
  if (d < size.days - 1) {
    clock.set(dayStart + DAY + 30_000);
    await midnight(ctx);
    await witnessDay(app, cast, new Date(dayStart).toISOString().slice(0, 10));
  }
  const elapsed = ((performance.now() - started) / 1000).toFixed(0);
  console.log(`day ${d + 1}/${size.days}: ${lastSequence} imprints, ${agentsSoFar} agents, ${elapsed} s`);
}

clock.set(Date.now());
await settleAgents(ctx);
const census = await runCensusJob(ctx);
await recordJobRun(ctx, 'people.census', clock.now(), clock.now(), 'ok');
await db.query('analyze');
// What the job runner keeps on a Record that has lived: the verification runs caught up, discrimination.
const runs = await keepUp(app);
console.log(`kept self-knowledge: ${runs} verification runs`);
console.log(`census snapshots: ${census.taken.length}`);
for (const [door, n] of [...(cast?.outcomes ?? new Map<string, number>())].sort())
  console.log(`  ${door}: ${n}`);
console.log(
  `seeded ${lastSequence} imprints, ${agentsSoFar} agents, ${sovereigns.length} sovereigns over ${size.days} days ` +
    `in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
await app.close();
await db.close();
