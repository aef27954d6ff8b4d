/**
 * The JSON answers pages read, typed from the operations' contracts (docs/contracts.md) rather
 * than declared again per page: `apiGet<Answer<'GET /api/stats'>>(Astro, '/api/stats')`.
 */
import type { ResponseOf } from '../../shared/contract.ts';
import type { ContractKey, ContractOf } from '../../shared/registry/contracts.ts';

export type Answer<K extends ContractKey> = ResponseOf<ContractOf<K>>;
