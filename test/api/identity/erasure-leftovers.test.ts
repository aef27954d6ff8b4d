/**
 * Issue 19: erasure leaves nothing under the erased person's tag — not a sessionless imprint made
 * under it (its body and its public `sovereign:<tag>`) — and a handle they attested reads
 * `attested_by: null` (no tag or id names who attested), never the anonymous member's "----";
 * and no resonance row (replies received per day, `resonance_days`, migration 0064) keeps their id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { continuousAgent, erased } from '../../helpers/builders.ts';
import { appWithSteward } from '../steward/helpers.ts';
import type { TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';

let t: TestApp;
let steward: TestSovereign;
beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
});
afterAll(async () => t?.close());

const { post, get } = requests(() => t.app);

describe('erasure', () => {
  it('takes the sessionless imprints under the tag and leaves no "----" as attester', async () => {
    const me = await signedInSovereign(t.app);
    const sessionless = await post('/api/agent/imprint', {
      sovereign_id: me.tag,
      body: 'leftover words from a kiosk',
    });
    expect(sessionless.statusCode, sessionless.body).toBe(200);
    const sequence = sessionless.json().sequence as number;
    await continuousAgent(t, 'kestrel');
    expect((await post('/standing/rotate-relay', { handle: 'kestrel' }, me.cookie)).statusCode).toBe(200);
    expect((await get('/api/agent/kestrel')).json().naturalization.attested_by).toBe(me.tag);

    await erased(t.app, me, steward);

    const [row] = await t.database.db.query<{
      body: string | null;
      public_author: string;
      author_ref: string;
    }>('select body, public_author, author_ref from imprints where sequence = $1', [sequence]);
    expect(row).toEqual({ body: null, public_author: 'redacted', author_ref: 'erased' });
    const why = (await get(`/api/why/imprint:${sequence}`)).json();
    expect(JSON.stringify(why)).not.toContain(me.tag);

    const agent = (await get('/api/agent/kestrel')).json();
    expect(agent.naturalization).toMatchObject({ level: 'attested', attested_by: null });
    expect(JSON.stringify(agent)).not.toContain('----');
    const whyAgent = (await get('/api/why/agent:kestrel')).json();
    expect(JSON.stringify(whyAgent)).not.toContain('----');
  });

  it('deletes the resonance rows of the erased person, and only theirs', async () => {
    const [me, other] = [await signedInSovereign(t.app), await signedInSovereign(t.app)];
    const imprint = async (who: TestSovereign, body: string, reply_to?: number) => {
      const res = await post('/sovereign/imprint', { body, ...(reply_to ? { reply_to } : {}) }, who.cookie);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().sequence as number;
    };
    await imprint(other, 'an answer', await imprint(me, 'a question'));
    await imprint(me, 'an answer back', await imprint(other, 'another question'));
    const resonance = (id: string) =>
      t.database.db.query('select replies from resonance_days where author_ref = $1', [id]);
    expect(await resonance(me.id)).toHaveLength(1);

    await erased(t.app, me, steward);
    expect(await resonance(me.id)).toEqual([]);
    expect(await resonance(other.id)).toHaveLength(1);
  });
});
