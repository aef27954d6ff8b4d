/**
 * The database-read floor: bare Fastify + node-postgres answering one indexed row per request with
 * a prepared (named) statement, against the bench's own database (DATABASE_URL). What a read route
 * could cost on this stack if it did nothing but read its row.
 */
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });
app.get('/agent/:handle', async (request, reply) => {
  const { rows } = await pool.query({
    name: 'floor-agent',
    text: 'select handle, level, first_seen_at, last_seen_at, imprints_accepted from agents where handle = $1',
    values: [(request.params as { handle: string }).handle],
  });
  return rows[0] ? { ok: true, agent: rows[0] } : reply.code(404).send({ ok: false });
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ ready: address });
process.on('disconnect', async () => {
  await app.close();
  await pool.end();
  process.exit(0);
});
