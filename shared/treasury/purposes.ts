/** What a checkout pays for (treasury_intents.purpose). */
export const PURPOSES = ['oracle', 'patronage', 'covenant', 'fund_evolution', 'inscription'] as const;
