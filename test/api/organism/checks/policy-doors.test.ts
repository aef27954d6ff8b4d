import { randomUUID } from 'node:crypto';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendImprint } from '../../../../api/record/window.ts';
import { POLICY_ACTIONS, type PolicyAction } from '../../../../shared/policy.ts';
import { TEST_ORIGIN, type TestApp } from '../../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../../helpers/identity.ts';
import { appWithSteward, sovereignWithId } from '../../steward/helpers.ts';
import { entry } from '../../../helpers/elements.ts';
import { imprintDraft } from '../../../helpers/imprint-draft.ts';

/**
 * /api/policy/evaluate runs the very checks the doors run (issue 12): for every action it knows,
 * the same actors are evaluated and then sent through the real door, and the answers agree. A
 * governor by configuration (governance:write without a uniqueness receipt) is the case that
 * once read "allowed" for ratification while the door refused it.
 */
let t: TestApp;
const governorId = randomUUID();
const actors: Record<string, TestSovereign> = {};
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);
const headers = (cookie: string) => ({ origin: TEST_ORIGIN, accept: 'application/json', cookie });

beforeAll(async () => {
  const made = await appWithSteward({ config: { governors: [governorId] } });
  t = made.t;
  actors.steward = made.steward;
  actors.plain = await signedInSovereign(t.app);
  actors.governor = await sovereignWithId(t, governorId);
  actors.verified = await signedInSovereign(t.app, { governance: true });
  actors.proposer = await signedInSovereign(t.app, { governance: true });
});
afterAll(async () => t?.close());

/** What each door needs to act, made fresh for each attempt so only the actor decides the answer. */
async function doorCall(
  action: PolicyAction,
): Promise<{ url: string; payload: Record<string, unknown>; target?: string }> {
  const now = t.clock.now().toISOString();
  switch (action) {
    case 'imprint':
      return { url: '/sovereign/imprint', payload: { body: `policy parity words ${ulid()}` } };
    case 'attest': {
      const handle = `cont-${ulid().slice(-8).toLowerCase()}`;
      await sql(
        `insert into agents (handle, secret_hash, level, first_seen_at, last_seen_at) values ($1, 'x', 'continuous', $2, $2)`,
        [handle, now],
      );
      return { url: '/standing/rotate-relay', payload: { handle }, target: handle };
    }
    case 'triage': {
      const held = await t.database.db.transaction((tx) =>
        appendImprint(
          tx,
          imprintDraft({
            body: `held for triage ${ulid()}`,
            authorRef: 'held-author',
            unattested: true,
            held: true,
            heldReason: 'burst',
            at: new Date(now),
          }),
        ),
      );
      return {
        url: '/sovereign/triage',
        payload: { target: `imprint:${held.sequence}`, action: 'keep_held' },
      };
    }
    case 'propose':
      return {
        url: '/api/constitution/propose',
        payload: { title: 'Parity', text: 'Evaluate and the door agree.' },
      };
    case 'cosign':
    case 'ratify': {
      const id = `prop_${ulid()}`;
      await sql(
        `insert into governance_proposals (id, title, body, proposer_id, state, created_at, receipt_id) values ($1, 'Parity', 'text', $2, $3, $4, 'rcpt_p')`,
        [id, entry(actors, 'proposer').id, action === 'cosign' ? 'proposed' : 'cosigned', now],
      );
      return { url: `/api/constitution/${action}`, payload: { proposal: id } };
    }
  }
}

describe('/api/policy/evaluate and the doors agree', () => {
  for (const action of POLICY_ACTIONS) {
    for (const who of ['plain', 'governor', 'verified', 'steward']) {
      it(`${action} by the ${who} sovereign`, async () => {
        const actor = entry(actors, who);
        const call = await doorCall(action);
        const query = `/api/policy/evaluate?action=${action}&actor=sovereign:${actor.tag}${call.target ? `&target=${call.target}` : ''}`;
        const evaluated = (
          await t.app.inject({ method: 'GET', url: query, headers: { accept: 'application/json' } })
        ).json();
        expect(evaluated.found).toBe(true);
        const door = await t.app.inject({
          method: 'POST',
          url: call.url,
          headers: headers(actor.cookie),
          payload: call.payload,
        });
        expect([200, 401, 403, 409]).toContain(door.statusCode);
        expect(evaluated.allowed, `${door.statusCode} ${door.body} / ${evaluated.reasons.join(' ')}`).toBe(
          door.statusCode === 200,
        );
      });
    }
  }

  it('ratification by a governor without a uniqueness receipt: evaluate says no, like the door', async () => {
    const evaluated = (
      await t.app.inject({
        method: 'GET',
        url: `/api/policy/evaluate?action=ratify&actor=sovereign:${entry(actors, 'governor').tag}`,
        headers: { accept: 'application/json' },
      })
    ).json();
    expect(evaluated).toMatchObject({
      allowed: false,
      requires: { scope: 'governance:write', external_authority: 'idp-receipt' },
    });
    expect(evaluated.reasons.join(' ')).toContain('uniqueness receipt: not held');
  });

  it('an agent: imprint through the agent door, every other action refused at the sovereign doors', async () => {
    for (const action of POLICY_ACTIONS) {
      const handle = `agent-${ulid().slice(-8).toLowerCase()}`;
      const evaluated = (
        await t.app.inject({
          method: 'GET',
          url: `/api/policy/evaluate?action=${action}&actor=agent:${handle}`,
          headers: { accept: 'application/json' },
        })
      ).json();
      const call =
        action === 'imprint'
          ? { url: '/api/agent/imprint', payload: { agent: handle, body: `agent parity ${ulid()}` } }
          : await doorCall(action);
      const door = await t.app.inject({
        method: 'POST',
        url: call.url,
        headers: { origin: TEST_ORIGIN, accept: 'application/json' },
        payload: call.payload,
      });
      expect(evaluated.allowed, `${action}: ${door.statusCode}`).toBe(door.statusCode === 200);
    }
  });
});
