import type { FamilyDeclaration } from '../personal-data-contract.ts';
import { touched } from '../personal-data-contract.ts';
import { iso } from '../../shared/time.ts';

/** Agents are not persons: the only personal datum here is which sovereign attested a handle. */
export const agentsPersonalData: FamilyDeclaration = {
  family: 'agents',
  tables: [
    {
      table: 'agents',
      personal: { attested_by: "the attesting sovereign's raw id" },
      impersonal: ['handle', 'secret_hash', 'level', 'relay_token_hash', 'public'],
      holder: { column: 'attested_by' },
      disposition: 'keep',
      why: 'The attestation is kept (the handle keeps its standing) but moves to the anonymous member: no tag or id names who attested.',
    },
    {
      table: 'agent_heartbeats',
      personal: {},
      impersonal: ['handle'],
      disposition: 'erase',
      why: "An agent's pings; no person.",
    },
    {
      table: 'agent_notes',
      personal: {},
      impersonal: ['handle', 'note'],
      disposition: 'erase',
      why: "An agent's own continuity note, private to the handle; no person.",
    },
    {
      table: 'agents_seen',
      personal: {},
      impersonal: ['handle', 'last_seen_at'],
      disposition: 'erase',
      why: 'Which agents were seen lately (kept for presence); no person.',
    },
    {
      table: 'agent_proof_days',
      personal: {},
      impersonal: ['handle'],
      disposition: 'erase',
      why: "An agent's proof days; no person.",
    },
    {
      table: 'agent_ascensions',
      personal: {},
      impersonal: ['handle', 'level'],
      disposition: 'keep',
      why: "An agent's public standing as /ascensions lists it, kept from its own row; no person (who attested is not kept here).",
    },
    {
      table: 'quarantine_releases',
      personal: {},
      impersonal: ['handle', 'receipt_id'],
      disposition: 'keep',
      why: "Which of an agent's imprints left quarantine when the handle was attested; no person.",
    },
    {
      table: 'relay_flashes',
      personal: { session_hash: "the attesting sovereign's session (hashed)" },
      impersonal: ['id', 'handle', 'ciphertext'],
      notExported: 'a one-time secret, shown only to the session that minted it',
      disposition: 'erase',
      why: 'A minted relay token waiting to be shown once to the session that minted it: deleted with the sessions.',
    },
  ],
  async export(sql, subject) {
    const attested = await sql.kysely
      .selectFrom('agents')
      .select(['handle', 'attested_at'])
      .where('attested_by', '=', subject.id)
      .orderBy('handle')
      .execute();
    return { agents_attested: attested.map((a) => ({ handle: a.handle, attested_at: iso(a.attested_at) })) };
  },
  async erase(tx, subject) {
    return {
      relay_flashes: await touched(
        tx,
        'delete from relay_flashes where session_hash in (select id_hash from sessions where sovereign_id = $1)',
        [subject.id],
      ),
      agents: await touched(tx, 'update agents set attested_by = $2 where attested_by = $1', [
        subject.id,
        subject.anonymousId,
      ]),
    };
  },
};
