/** HTTP carries the relay token in `Authorization: Bearer`; a tool takes it as an argument. */
import { z } from 'zod';

export const relayToken = {
  relay_token: z.string().max(200).optional().describe('Your relay token (rt_…), once attested'),
};
