/**
 * The one text rule: every string a request carries (body, query, path parameter, MCP tool
 * argument) must be text PostgreSQL can store. It refuses NUL (U+0000: no `text` or `jsonb` value
 * may hold it) and lone UTF-16 surrogates (no UTF-8 encoding exists for them), in values and in
 * object keys alike. The router (api/router.ts) and the MCP endpoint (api/mcp/endpoint.ts) apply
 * it before anything reads the input, so a handler never meets such text and never answers 500.
 */

export interface TextIssue {
  path: string;
  message: string;
}

const MESSAGE = 'must be text without NUL (U+0000) or unpaired surrogate characters, which cannot be stored';

/** Inputs are small (the body limit bounds them); the walk still stops at a sane depth. */
const MAX_DEPTH = 32;

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** Every string in `value` (a parsed body, query, params or arguments) that cannot be stored, by path. */
export function unstorableText(value: unknown, prefix = ''): TextIssue[] {
  const issues: TextIssue[] = [];
  walk(value, prefix, 0, issues);
  return issues;
}

function walk(value: unknown, path: string, depth: number, issues: TextIssue[]): void {
  if (typeof value === 'string') {
    if (!isStorableText(value))
      issues.push({ path: path || '(body)', message: `${path || 'value'} ${MESSAGE}` });
    return;
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return;
  if (value instanceof Uint8Array) return;
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (!isStorableText(key)) {
      issues.push({ path: at, message: `the field name ${MESSAGE}` });
      continue;
    }
    walk(item, at, depth + 1, issues);
  }
}
