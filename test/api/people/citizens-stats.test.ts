/**
 * Issue 19: /api/citizens and /api/stats count humans and agents by one definition — an agent is
 * a handle with a public imprint (a held name is neither listed nor counted), a human a sovereign
 * counted as /api/stats counts them (an erasure keeps the count).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { agentImprint, heldAgentImprint, jsonHeaders, triage } from '../../helpers/builders.ts';
import { appWithSteward } from '../steward/helpers.ts';
import type { TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';

let t: TestApp;
let steward: TestSovereign;
beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
});
afterAll(async () => t?.close());

const http = requests(() => t.app);
const get = async (url: string) => (await http.get(url)).json();

async function agree() {
  const stats = await get('/api/stats');
  const roster = await get('/api/citizens?limit=100');
  expect(roster.agents.total).toBe(stats.agents);
  expect(roster.humans.total).toBe(stats.humans);
  return { stats, roster: { agents: roster.agents.listed, humans: roster.humans.listed } };
}

describe('citizens and stats', () => {
  it('count the same agents and humans', async () => {
    for (let i = 0; i < 3; i++) await agentImprint(t.app, `tern-${i}`, `a plain thought ${i}`);
    const { sequence } = await heldAgentImprint(t.app, 'spammy-tern', 'heldname');
    let { stats, roster } = await agree();
    expect(stats.agents).toBe(3);
    expect(roster.agents.map((a: { ref: string }) => a.ref)).not.toContain('agent:spammy-tern');
    expect(roster.agents).toHaveLength(stats.agents);

    await triage(t.app, steward, sequence, 'release', 'not spam after all');
    ({ stats, roster } = await agree());
    expect(stats.agents).toBe(4);
    expect(roster.agents).toHaveLength(4);

    const me = await signedInSovereign(t.app);
    const asked = await t.app.inject({
      method: 'POST',
      url: '/settings/data/request',
      headers: jsonHeaders(me.cookie),
      payload: { kind: 'erasure' },
    });
    const done = await t.app.inject({
      method: 'POST',
      url: '/steward/data-requests',
      headers: jsonHeaders(steward.cookie),
      payload: { id: asked.json().request.id, action: 'complete' },
    });
    expect(done.statusCode, done.body).toBe(200);
    ({ stats } = await agree()); // totals agree; an erasure keeps the count (DESIGN.md)
    expect(stats.humans).toBe(2);
  });
});
