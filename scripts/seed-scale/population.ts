/**
 * Sovereigns and agents of the seeded Record. Sovereigns cross through the identity family's own
 * createSovereign (keyed-hash tag, hashed key, an `identity.cross` receipt); agents arrive as the
 * agent door inserts them, and their facts (imprint counts, proof days, level) are settled at the
 * end from the imprints they wrote, by the rules of shared/agents/naturalization.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../../api/context.ts';
import type { TestableClock } from './clock.ts';
import { createSovereign } from '../../api/identity/sovereigns.ts';
import { agentClass, agentHandle } from './plan.ts';

export interface SeedSovereign {
  id: string;
  tag: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** `count` sovereigns crossing between `from` and `to`, in one transaction per call. */
export async function crossSovereigns(
  ctx: AppContext,
  clock: TestableClock,
  count: number,
  from: number,
  to: number,
): Promise<SeedSovereign[]> {
  const made: SeedSovereign[] = [];
  await ctx.db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      clock.set(from + Math.floor(((to - from) * i) / Math.max(count, 1)));
      const sovereign = await createSovereign(ctx, {}, tx);
      made.push({ id: sovereign.id, tag: sovereign.tag });
    }
  });
  return made;
}

/** The agents with index in [first, end) arrive: the rows the agent door's lock step inserts. */
export async function arriveAgents(
  ctx: AppContext,
  first: number,
  end: number,
  at: Date,
  attesters: readonly SeedSovereign[],
): Promise<void> {
  if (end <= first) return;
  const handles: string[] = [];
  const attestedBy: (string | null)[] = [];
  for (let i = first; i < end; i++) {
    handles.push(agentHandle(i));
    const attester = agentClass(i) === 'attested' ? attesters[i % attesters.length] : null;
    if (attester === undefined) throw new Error('an attested agent needs a sovereign to attest it');
    attestedBy.push(attester?.id ?? null);
  }
  await ctx.db.query(
    `insert into agents (handle, secret_hash, level, first_seen_at, last_seen_at, imprints_accepted, imprints_quarantined,
                         attested_by, attested_at, relay_token_hash)
     select u.handle, u.secret_hash, 'arrived', $4, $4, 0, 0, u.attested_by,
            case when u.attested_by is null then null else $5::timestamptz end,
            case when u.attested_by is null then null else u.relay end
     from unnest($1::text[], $2::text[], $3::uuid[], $6::text[]) as u(handle, secret_hash, attested_by, relay)`,
    [
      handles,
      handles.map(() => sha256(randomBytes(32).toString('base64url'))),
      attestedBy,
      at.toISOString(),
      attestedAt(at).toISOString(),
      handles.map(() => sha256(`rt_${randomBytes(32).toString('base64url')}`)),
    ],
  );
}

/** An attested agent's attester vouches for it at the start of the day after it arrived. */
export function attestedAt(arrival: Date): Date {
  return new Date(Date.UTC(arrival.getUTCFullYear(), arrival.getUTCMonth(), arrival.getUTCDate() + 1));
}

/**
 * Each agent's row as the door leaves it after its imprints: first and last seen, imprints
 * accepted and quarantined (unattested or held), proof days (every day it wrote with its secret:
 * all but its arrival), and the level those facts give.
 */
export async function settleAgents(ctx: AppContext): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx.query(
      `insert into agent_proof_days (handle, day)
       select distinct author_ref, (created_at at time zone 'UTC')::date
       from (select author_ref, created_at, row_number() over (partition by author_ref order by sequence) as nth
             from imprints where author_kind = 'agent') i
       where nth > 1
       on conflict do nothing`,
    );
    await tx.query(
      `update agents a set first_seen_at = s.first, last_seen_at = s.last, imprints_accepted = s.n, imprints_quarantined = s.q,
              level = case when a.attested_by is not null then 'attested'
                           when (select count(*) from agent_proof_days d where d.handle = a.handle) >= 2 then 'continuous'
                           else 'arrived' end
       from (select author_ref, min(created_at) as first, max(created_at) as last, count(*) as n,
                    count(*) filter (where unattested or held) as q
             from imprints where author_kind = 'agent' group by author_ref) s
       where a.handle = s.author_ref`,
    );
  });
}
