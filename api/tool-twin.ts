/** An MCP tool's input taken from its HTTP twin's contract, for every family's tools (beside api/tool.ts). */
import type { z } from 'zod';
import { CONTRACTS, type ContractKey } from '../shared/registry/contracts.ts';

type Part<C, P extends string> = C extends { [K in P]: z.ZodObject<infer S> } ? S : Record<never, never>;
/** The fields a twin takes: its path params, query and body, as one zod shape. */
export type TwinShape<K extends ContractKey> = Part<(typeof CONTRACTS)[K], 'params'> &
  Part<(typeof CONTRACTS)[K], 'query'> &
  Part<(typeof CONTRACTS)[K], 'body'>;

/**
 * An MCP tool's input, taken from its HTTP twin's contract rather than written again: the same
 * zod fields, so the tool and the route validate alike. A tool narrows it with `pick`/`omit`
 * and adds only what HTTP carries elsewhere (a relay token HTTP sends as a header).
 */
export function twinInput<K extends ContractKey>(key: K): TwinShape<K> {
  const contract = CONTRACTS[key] as { params?: z.ZodObject; query?: z.ZodObject; body?: z.ZodObject };
  return { ...contract.params?.shape, ...contract.query?.shape, ...contract.body?.shape } as TwinShape<K>;
}

/** Keeps the named fields of a shape (the twin's form-only fields, like `return_to`, stay out of MCP). */
export function pick<S extends z.ZodRawShape, F extends keyof S>(shape: S, ...fields: F[]): Pick<S, F> {
  return Object.fromEntries(fields.map((field) => [field, shape[field]])) as Pick<S, F>;
}

/** Makes fields the twin leaves optional required for the tool (e.g. `agent`, which HTTP may replace by a session). */
export function required<S extends Record<string, z.ZodType>, F extends keyof S & string>(
  shape: S,
  ...fields: F[]
): Omit<S, F> & { [K in F]: z.ZodNonOptional<S[K]> } {
  const made = Object.fromEntries(
    fields.map((field) => {
      const schema = shape[field];
      if (schema === undefined) throw new Error(`internal: the twin's shape has no field ${field}`);
      return [field, schema.nonoptional({ error: `${field} is required` })];
    }),
  );
  return { ...shape, ...made } as never;
}
