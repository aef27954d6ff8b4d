/**
 * Views kept by a job (migration 0065): the `organism.observatory` job keeps the swarm, the
 * prevention experiment's findings, the dashboard and resonance's ranking. The mechanism lives below the families (api/db/kept-views.ts),
 * so the people family keeps its view with it too.
 */
export * from '../../db/kept-views.ts';
