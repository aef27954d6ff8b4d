import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { API, parse, sources, where } from '../helpers/api-syntax.ts';

/**
 * A constant of a typed query is a literal in its statement, never a parameter (docs/ARCHITECTURE.md,
 * "The data layer"): Kysely makes every value a parameter, every statement is a named prepared
 * statement, and after five runs PostgreSQL may plan it once for any value — a generic plan, which
 * guesses 10% of the rows for `limit $1` and cannot use a partial index for `held = $1`. So a
 * constant is written `constant(…)` (api/db/kysely.ts).
 *
 * This test reads api/ with TypeScript's parser and finds the constants still passed as values: a
 * `.limit(…)` or `.offset(…)` of a literal or an UPPER_CASE name, and a comparison
 * `(…)('column', '<op>', value)` — `.where`, `.having`, `eb(…)` — whose value is a string, number
 * or boolean literal, an UPPER_CASE name, or a list of them. A value that varies (a request's
 * limit, a cursor, the clock, a function's argument) stays a parameter and is left alone. Every
 * family is at 0: none may come back.
 */

const OPERATORS = new Set([
  '=',
  '<>',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'in',
  'not in',
  'like',
  'not like',
  'ilike',
]);

const isConstant = (node: ts.Expression): boolean =>
  ts.isStringLiteral(node) ||
  ts.isNoSubstitutionTemplateLiteral(node) ||
  ts.isNumericLiteral(node) ||
  node.kind === ts.SyntaxKind.TrueKeyword ||
  node.kind === ts.SyntaxKind.FalseKeyword ||
  (ts.isPrefixUnaryExpression(node) && ts.isNumericLiteral(node.operand)) ||
  (ts.isIdentifier(node) && /^[A-Z][A-Z0-9_]*$/.test(node.text)) ||
  (ts.isArrayLiteralExpression(node) && node.elements.length > 0 && node.elements.every(isConstant));

/** Every constant passed as a parameter to a typed query in api/, as `path:line: call(value)`. */
function constantParameters(): string[] {
  const found: string[] = [];
  for (const path of sources(API)) {
    const file = parse(path);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
        const [first, operator, value] = node.arguments;
        const limit = (name === 'limit' || name === 'offset') && node.arguments.length === 1 && first;
        const compared =
          name !== 'whereRef' &&
          node.arguments.length === 3 &&
          first &&
          ts.isStringLiteral(first) &&
          operator &&
          ts.isStringLiteral(operator) &&
          OPERATORS.has(operator.text) &&
          value;
        const constant =
          limit && isConstant(limit) ? limit : compared && isConstant(compared) ? compared : null;
        if (constant) found.push(`${where(file, constant)}: ${name || 'eb'}(… ${constant.getText(file)})`);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

describe('constants passed as parameters to typed queries in api/', () => {
  it('are none: every constant is written constant(…)', () => {
    expect(constantParameters()).toEqual([]);
  });
});
