/**
 * An MCP tool's `outputSchema` from its HTTP twin's answer schema. MCP wants an object schema at the
 * root (`type: "object"`), and the SDK takes a zod object only; a twin that answers a union of
 * objects (an agent's imprint or a sovereign's, a valid certificate or a refused one, an imprint's
 * reasons or an agent's) is given as one object that covers every branch, with the union itself
 * kept exactly: as a refinement for the server's own check, and as the twin's `anyOf`/`oneOf` in
 * the JSON Schema a client validates against (the branches /openapi.json publishes).
 */
import { z } from 'zod';
import { jsonSchemaOf } from '../contract.ts';

/** The object branches of a union (nested unions flattened), or undefined when a branch is not an object. */
function objectBranches(schema: z.ZodType): z.ZodObject[] | undefined {
  if (schema instanceof z.ZodObject) return [schema];
  if (!(schema instanceof z.ZodUnion)) return undefined;
  const branches: z.ZodObject[] = [];
  for (const option of schema.options as z.ZodType[]) {
    const inner = objectBranches(option);
    if (!inner) return undefined;
    branches.push(...inner);
  }
  return branches;
}

/** Every field any branch has: the branches' own schemas for it (one when shared), optional where a branch lacks it. */
function coveringShape(branches: z.ZodObject[]): z.ZodRawShape {
  const fields = new Map<string, [z.ZodType, ...z.ZodType[]]>();
  for (const branch of branches)
    for (const [key, field] of Object.entries(branch.shape as Record<string, z.ZodType>)) {
      const seen = fields.get(key);
      if (seen === undefined) fields.set(key, [field]);
      else if (!seen.includes(field)) seen.push(field);
    }
  const shape: Record<string, z.ZodType> = {};
  for (const [key, schemas] of fields) {
    const field = schemas.length === 1 ? schemas[0] : z.union(schemas as [z.ZodType, z.ZodType]);
    shape[key] = branches.every((branch) => key in branch.shape) ? field : field.optional();
  }
  return shape;
}

/** The twin's answer as an MCP output schema: itself when an object, a covering object when a union of objects. */
export function mcpOutputSchema(response: z.ZodType | undefined): z.ZodObject | undefined {
  if (!response) return undefined;
  if (response instanceof z.ZodObject) return response;
  const branches = objectBranches(response);
  if (!branches) return undefined;
  const json = jsonSchemaOf(response, 'output');
  const exact = Object.fromEntries(
    ['anyOf', 'oneOf', '$defs'].filter((key) => key in json).map((key) => [key, json[key]]),
  );
  return z
    .object(coveringShape(branches))
    .superRefine((value, ctx) => {
      const parsed = response.safeParse(value);
      if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue } as never);
    })
    .meta(exact);
}
