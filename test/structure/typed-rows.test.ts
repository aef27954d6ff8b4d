import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Rows are typed from the entities, never by hand (docs/ARCHITECTURE.md, "The data layer"): a query
 * is a typed Kysely query (`sql.kysely`, api/db/kysely.ts), whose row Kysely infers, or raw SQL
 * whose row type is built from the entities. This test reads every file of api/ with TypeScript's
 * parser (syntax only, no type checker) and judges the row type of every raw query:
 * - the type argument of a `….query<T>(…)` call, and of a Kysely `sql<T>`/`fragment<T>` template
 *   that runs as a whole statement (`.execute(…)`); a template that is one column of a Kysely
 *   query types a value, not a row, and is left alone;
 * - a `….query(…)` without a type argument whose rows are read (anything but a bare
 *   `await ….query(…);` statement): its rows are the default `Record<string, unknown>`.
 *
 * A row type is typed from the entities when it is, or resolves to (through type aliases and
 * interfaces, in its file or imported):
 * - `RowOf<…>` or `Counts<…>` (api/db/rows.ts), `Row<'table'>` (api/db/kysely.ts);
 * - `Pick`, `Omit`, `Readonly`, `Required` or `NonNullable` of one of them;
 * - an intersection with at least one such part, whose other parts are such parts or object literals:
 *   the computed columns (`Counts<'n'> & { date: string }`); an interface extending one of them
 *   with its own fields is the same intersection;
 * - a union of such types.
 * Anything else is hand-typed and counted: an object literal alone (`{ n: number }`), any
 * `Record<…>` (a row of figures is `Counts<'a' | 'b'>`, which names its columns), a name that
 * resolves to an interface or an object literal written field by field, a type parameter, a type
 * from a package.
 *
 * A ratchet, per family folder of api/: a count may go down, never up, and a family whose count
 * reaches 0 leaves the list (then it must stay at 0).
 */
const HAND_TYPED = new Map<string, number>([
  ['agents', 3],
  ['calibration', 17],
  ['chronicle', 5],
  ['governance', 17],
  ['identity', 6],
  ['keys.ts', 1],
  ['orders', 1],
  ['organism', 31],
  ['people', 7],
  ['personal-data-contract.ts', 1],
  ['record', 2],
  ['treasury', 2],
]);

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const API = join(ROOT, 'api');

/** The declarations a row type may be built from: file (from the root) → exported names. */
const ENTITY_TYPES = new Map([
  ['api/db/rows.ts', new Set(['RowOf', 'Counts'])],
  ['api/db/kysely.ts', new Set(['Row'])],
]);
/** The files that implement `query` over the drivers. */
const LAYER = new Set(['api/db/database.ts', 'api/db/kysely.ts']);
/** TypeScript's own wrappers that keep their first argument's columns. */
const WRAPPERS = new Set(['Pick', 'Omit', 'Readonly', 'Required', 'NonNullable']);

type Verdict = 'entity' | 'literal' | 'hand';

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.ts$/.test(entry.name)) yield path;
  }
}

const parsed = new Map<string, ts.SourceFile>();
function parse(path: string): ts.SourceFile {
  let file = parsed.get(path);
  if (!file) {
    file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(path, file);
  }
  return file;
}

type Declaration = ts.TypeAliasDeclaration | ts.InterfaceDeclaration;

/** Where `name`, as seen in `file`, is declared: in the file, or through its imports and re-exports. */
function declarationOf(
  file: ts.SourceFile,
  name: string,
  seen = new Set<string>(),
): [ts.SourceFile, Declaration] | 'entity' | undefined {
  const key = `${file.fileName}#${name}`;
  if (seen.has(key)) return undefined;
  seen.add(key);
  if (ENTITY_TYPES.get(relative(ROOT, file.fileName))?.has(name)) return 'entity';
  for (const statement of file.statements) {
    if (
      (ts.isTypeAliasDeclaration(statement) || ts.isInterfaceDeclaration(statement)) &&
      statement.name.text === name
    ) {
      return [file, statement];
    }
  }
  for (const statement of file.statements) {
    const from =
      ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)
        ? statement.moduleSpecifier
        : undefined;
    if (!from || !ts.isStringLiteral(from) || !from.text.startsWith('.')) continue;
    const target = resolve(dirname(file.fileName), from.text);
    if (!existsSync(target)) continue;
    const specifiers = ts.isImportDeclaration(statement)
      ? statement.importClause?.namedBindings
      : statement.exportClause;
    if (!specifiers) {
      // `export * from …`
      if (ts.isExportDeclaration(statement)) {
        const found = declarationOf(parse(target), name, seen);
        if (found) return found;
      }
      continue;
    }
    if (!ts.isNamedImports(specifiers) && !ts.isNamedExports(specifiers)) continue;
    for (const specifier of specifiers.elements) {
      if (specifier.name.text === name)
        return declarationOf(parse(target), (specifier.propertyName ?? specifier.name).text, seen);
    }
  }
  return undefined;
}

/** An intersection: typed from the entities if one part is and every other is, or is an object literal. */
function judgeAll(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.includes('hand')) return 'hand';
  return verdicts.includes('entity') ? 'entity' : 'literal';
}

function judge(node: ts.TypeNode, file: ts.SourceFile): Verdict {
  if (ts.isParenthesizedTypeNode(node)) return judge(node.type, file);
  if (ts.isTypeLiteralNode(node)) return 'literal';
  if (ts.isIntersectionTypeNode(node)) return judgeAll(node.types.map((type) => judge(type, file)));
  if (ts.isUnionTypeNode(node))
    return node.types.every((type) => judge(type, file) === 'entity') ? 'entity' : 'hand';
  if (!ts.isTypeReferenceNode(node)) return 'hand';
  return judgeName(node.typeName, node.typeArguments, file);
}

function judgeName(
  name: ts.EntityName | ts.Expression,
  typeArguments: readonly ts.TypeNode[] | undefined,
  file: ts.SourceFile,
): Verdict {
  if (!ts.isIdentifier(name)) return 'hand';
  const found = declarationOf(file, name.text);
  if (found === 'entity') return 'entity';
  if (!found) {
    const [first] = typeArguments ?? [];
    return WRAPPERS.has(name.text) && first ? judge(first, file) : 'hand';
  }
  const [home, declaration] = found;
  if (ts.isTypeAliasDeclaration(declaration)) return judge(declaration.type, home);
  const extended = (declaration.heritageClauses ?? []).flatMap((clause) => clause.types);
  return judgeAll([
    ...extended.map((type) => judgeName(type.expression, type.typeArguments, home)),
    ...(declaration.members.length > 0 ? ['literal' as const] : []),
  ]);
}

/** Is `node` only a truth test: `!rows`, `if (row)`, `row && …` in a condition? */
function tested(node: ts.Node): boolean {
  let at = node;
  while (
    ts.isParenthesizedExpression(at.parent) ||
    (ts.isBinaryExpression(at.parent) &&
      [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken].includes(
        at.parent.operatorToken.kind,
      ))
  ) {
    at = at.parent;
  }
  const parent = at.parent;
  return (
    (ts.isPrefixUnaryExpression(parent) && parent.operator === ts.SyntaxKind.ExclamationToken) ||
    (ts.isIfStatement(parent) && parent.expression === at) ||
    (ts.isConditionalExpression(parent) && parent.condition === at)
  );
}

/**
 * Are the rows of an untyped query never read: the call is a statement of its own, or its rows (or
 * its first row) are bound to a name used only for `.length` or as a truth test?
 */
function unread(call: ts.CallExpression): boolean {
  let at: ts.Node = call;
  while (ts.isParenthesizedExpression(at.parent) || ts.isAwaitExpression(at.parent)) at = at.parent;
  if (ts.isExpressionStatement(at.parent)) return true;
  const binding = at.parent;
  if (!ts.isVariableDeclaration(binding) || binding.initializer !== at) return false;
  let name: ts.Identifier | undefined;
  let whole = false;
  if (ts.isIdentifier(binding.name)) [name, whole] = [binding.name, true];
  else if (ts.isArrayBindingPattern(binding.name) && binding.name.elements.length === 1) {
    const [element] = binding.name.elements;
    if (element && ts.isBindingElement(element) && ts.isIdentifier(element.name) && !element.dotDotDotToken)
      name = element.name;
  }
  if (!name) return false;
  const scope = binding.parent.parent.parent;
  const uses: ts.Identifier[] = [];
  const collect = (node: ts.Node): void => {
    const key =
      (ts.isPropertyAssignment(node.parent) || ts.isPropertyAccessExpression(node.parent)) &&
      node.parent.name === node;
    if (ts.isIdentifier(node) && node !== name && node.text === name.text && !key) uses.push(node);
    ts.forEachChild(node, collect);
  };
  collect(scope);
  return uses.every(
    (use) =>
      tested(use) ||
      (whole &&
        ts.isPropertyAccessExpression(use.parent) &&
        use.parent.expression === use &&
        use.parent.name.text === 'length'),
  );
}

function runsAsStatement(template: ts.TaggedTemplateExpression): boolean {
  const parent = template.parent;
  return (
    ts.isPropertyAccessExpression(parent) &&
    parent.name.text === 'execute' &&
    ts.isCallExpression(parent.parent)
  );
}

/** Every hand-typed query row in api/, as `path:line: what`. */
function handTypedRows(): string[] {
  const found: string[] = [];
  for (const path of sources(API)) {
    const file = parse(path);
    const report = (node: ts.Node, what: string) => {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
      found.push(`${relative(ROOT, path)}:${line + 1}: ${what}`);
    };
    // The layer itself: `query` there is the driver's.
    if (LAYER.has(relative(ROOT, path))) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const name = ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : ts.isIdentifier(callee)
            ? callee.text
            : '';
        if (name === 'query') {
          const [row] = node.typeArguments ?? [];
          if (row) {
            if (judge(row, file) !== 'entity') report(node, `query<${row.getText(file)}>`);
          } else if (!unread(node)) report(node, 'query(…) whose untyped rows are read');
        }
      }
      if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && runsAsStatement(node)) {
        const [row] = node.typeArguments ?? [];
        if (!row || judge(row, file) !== 'entity')
          report(node, `${node.tag.text}<${row?.getText(file) ?? ''}>\`…\`.execute`);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

function perFamily(rows: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const family = row.split(':')[0]?.split('/')[1] ?? '';
    counts.set(family, (counts.get(family) ?? 0) + 1);
  }
  return counts;
}

describe('hand-typed query rows in api/', () => {
  const rows = handTypedRows();
  const counts = perFamily(rows);
  if (process.env.TYPED_ROWS_LIST) console.log(rows.join('\n'));

  it('only go down, family by family', () => {
    const grown = [...counts]
      .filter(([family, count]) => count > (HAND_TYPED.get(family) ?? 0))
      .map(([family, count]) => ({
        family: `api/${family}: ${count} hand-typed rows (allowed ${HAND_TYPED.get(family) ?? 0})`,
        rows: rows.filter((row) => row.startsWith(`api/${family}`)),
      }));
    expect(grown).toEqual([]);
  });

  it('keep the list tight: a family that converted some lowers its number', () => {
    const stale = [...HAND_TYPED]
      .filter(([family, allowed]) => (counts.get(family) ?? 0) < allowed)
      .map(([family, allowed]) => `api/${family}: ${counts.get(family) ?? 0} now, listed ${allowed}`);
    expect(stale).toEqual([]);
  });
});
