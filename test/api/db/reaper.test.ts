/**
 * The suite's reaper (test/helpers/postgres.ts `reap`): while a run's process lives it drops that
 * run's retired copies and every database of a run whose process is gone, never a live run's
 * template or copies in use; once the run's process has ended, it drops the rest of the run.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { serverUrl } from '../../helpers/db.ts';
import { admin, reap } from '../../helpers/postgres.ts';
import { until } from '../../helpers/wait.ts';

const url = serverUrl();
const DEAD_PID = 4_194_304 + 4_321; // above any pid_max: never a process

/** A run tag as runTag makes it, for the given process. */
const tagOf = (pid: number, hex: string) => `${pid.toString(36)}${hex}`;

const names = (run: string) => ({
  template: `civitas_tpl_${run}`,
  copy: `civitas_t_${run}_0a0a0a`,
  retired: `civitas_x_${run}_0b0b0b`,
});

async function existing(of: string[]): Promise<string[]> {
  const { rows } = await admin(url!, (client) =>
    client.query<{ datname: string }>('select datname from pg_database where datname = any($1) order by 1', [
      of,
    ]),
  );
  return rows.map((r) => r.datname);
}

describe.runIf(url)('the reaper', () => {
  it('drops retired copies and gone runs as the run goes, and the rest once the run has ended', async () => {
    const owner = spawn('sleep', ['120']);
    const live = names(tagOf(owner.pid!, 'c1c1c1'));
    const gone = names(tagOf(DEAD_PID, 'd2d2d2'));
    const all = [...Object.values(live), ...Object.values(gone)];
    await admin(url!, async (client) => {
      for (const name of all) await client.query(`create database ${name}`);
    });
    try {
      const reaping = reap(url!, tagOf(owner.pid!, 'c1c1c1'));
      // While the run lives: its retired copy and the gone run go; its template and copy stay.
      await until('the retired copy and the gone run dropped', async () => {
        const left = await existing(all);
        return left.length === 2 ? left : undefined;
      });
      expect(await existing(all)).toEqual([live.copy, live.template].sort());
      // Once the run's process has ended: everything of it.
      owner.kill('SIGKILL');
      await reaping;
      expect(await existing(all)).toEqual([]);
    } finally {
      owner.kill('SIGKILL');
      await admin(url!, async (client) => {
        for (const name of all) await client.query(`drop database if exists ${name}`);
      });
    }
  }, 120_000);
});
