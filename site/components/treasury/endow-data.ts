/**
 * What /endow and its alias /pricing read: the Oracle's quote and provider, and one page of
 * inscriptions (the page passes its own `after` and `limit` on to the list). The pages set their
 * status from it in their own frontmatter: a status set inside a component comes too late.
 */
import { apiGet, passedOn, type ApiContext, type ApiResult } from '../../lib/api.ts';
import type { Answer } from '../../lib/answers.ts';

export interface EndowData {
  oracle: ApiResult<Answer<'GET /api/oracle'>>;
  inscriptions: ApiResult<Answer<'GET /api/inscriptions'>>;
  /** 503 without the Oracle's quote, 400 for a page link the inscriptions list did not make. */
  status: number;
}

export async function endowData(Astro: ApiContext & { url: URL }): Promise<EndowData> {
  const [oracle, inscriptions] = await Promise.all([
    apiGet<Answer<'GET /api/oracle'>>(Astro, '/api/oracle'),
    apiGet<Answer<'GET /api/inscriptions'>>(
      Astro,
      passedOn(Astro.url, '/api/inscriptions', ['after', 'limit']),
    ),
  ]);
  const status = oracle.status !== 200 ? 503 : inscriptions.status === 400 ? 400 : 200;
  return { oracle, inscriptions, status };
}
