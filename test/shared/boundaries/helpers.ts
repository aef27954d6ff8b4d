/** Builds the real tier-1 inventory the way the API's scanner does: import each module, list its exports. */
import {
  computeCoverage,
  tier1FromNamespaces,
  TIER1_MODULES,
  type Coverage,
  type InventoryInput,
} from '../../../shared/boundaries/coverage.ts';

export async function tier1Inventory(): Promise<Pick<InventoryInput, 'tier1Exports' | 'declarations'>> {
  const namespaces = [];
  for (const module of TIER1_MODULES) {
    const url = new URL(`../../../${module}`, import.meta.url).href;
    namespaces.push({ module, exports: (await import(/* @vite-ignore */ url)) as Record<string, unknown> });
  }
  return tier1FromNamespaces(namespaces);
}

export async function accountedCoverage(): Promise<Coverage> {
  return computeCoverage({ ...(await tier1Inventory()), surfaces: [], modules: [] });
}
