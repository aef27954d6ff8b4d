/**
 * The row types of api/'s raw queries, judged as test/structure/typed-rows.test.ts describes:
 * typed from the entities, or hand-typed.
 */
import { existsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';
import { API, ROOT, parse, sources, where } from './api-syntax.ts';

/**
 * The declarations a row type may be built from: file (from the root) or package → exported names.
 * MikroORM's `MigrationRow` is the row of the migrator's own table, which no entity describes.
 */
const ENTITY_TYPES = new Map([
  ['api/db/rows.ts', new Set(['RowOf', 'Counts'])],
  ['api/db/kysely.ts', new Set(['Row'])],
  ['@mikro-orm/core', new Set(['MigrationRow'])],
]);
/** The files that implement `query` over the drivers. */
const LAYER = new Set([
  'api/db/database.ts',
  'api/db/prepared.ts',
  'api/db/shared-reads.ts',
  'api/db/kysely.ts',
]);
/** TypeScript's own wrappers that keep their first argument's columns. */
const WRAPPERS = new Set(['Pick', 'Omit', 'Readonly', 'Required', 'NonNullable']);

type Verdict = 'entity' | 'literal' | 'hand';

type Declaration = ts.TypeAliasDeclaration | ts.InterfaceDeclaration;

const declared = new Map<ts.SourceFile, Map<string, Declaration>>();
/** The type aliases and interfaces a file declares, at its top level first, then inside functions. */
function declarationsOf(file: ts.SourceFile): Map<string, Declaration> {
  let names = declared.get(file);
  if (!names) {
    const found = new Map<string, Declaration>();
    const visit = (node: ts.Node): void => {
      if ((ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node)) && !found.has(node.name.text))
        found.set(node.name.text, node);
      ts.forEachChild(node, visit);
    };
    file.statements.forEach(visit);
    declared.set(file, (names = found));
  }
  return names;
}

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
  const local = declarationsOf(file).get(name);
  if (local) return [file, local];
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const from = statement.moduleSpecifier;
    if (!from || !ts.isStringLiteral(from)) continue;
    const specifiers = ts.isImportDeclaration(statement)
      ? statement.importClause?.namedBindings
      : statement.exportClause;
    if (!from.text.startsWith('.')) {
      const imported = specifiers && ts.isNamedImports(specifiers) ? specifiers.elements : [];
      const match = imported.find((specifier) => specifier.name.text === name);
      if (match && ENTITY_TYPES.get(from.text)?.has((match.propertyName ?? match.name).text)) return 'entity';
      continue;
    }
    const target = resolve(dirname(file.fileName), from.text);
    if (!existsSync(target)) continue;
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
  if (ts.isTypeLiteralNode(node)) {
    const typed = node.members.every(
      (member) => ts.isPropertySignature(member) && member.type && isColumn(member.type, file),
    );
    return typed && node.members.length > 0 ? 'entity' : 'literal';
  }
  if (ts.isIntersectionTypeNode(node)) return judgeAll(node.types.map((type) => judge(type, file)));
  if (ts.isUnionTypeNode(node))
    return node.types.every((type) => judge(type, file) === 'entity') ? 'entity' : 'hand';
  if (!ts.isTypeReferenceNode(node)) return 'hand';
  return judgeName(node.typeName, node.typeArguments, file);
}

/** A field typed by an entity's column: `Row<'receipts'>['id']`, maybe `| null` or an array of it. */
function isColumn(node: ts.TypeNode, file: ts.SourceFile): boolean {
  if (ts.isParenthesizedTypeNode(node)) return isColumn(node.type, file);
  if (ts.isIndexedAccessTypeNode(node)) return judge(node.objectType, file) === 'entity';
  if (ts.isArrayTypeNode(node)) return isColumn(node.elementType, file);
  if (ts.isLiteralTypeNode(node)) return node.literal.kind === ts.SyntaxKind.NullKeyword;
  if (ts.isUnionTypeNode(node))
    return (
      node.types.some((type) => !ts.isLiteralTypeNode(type)) &&
      node.types.every((type) => isColumn(type, file))
    );
  if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
    // A name for a column's type: `type Sequence = Row<'imprints'>['sequence']`.
    const found = declarationOf(file, node.typeName.text);
    return Array.isArray(found) && ts.isTypeAliasDeclaration(found[1]) && isColumn(found[1].type, found[0]);
  }
  return false;
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
export function handTypedRows(): string[] {
  const found: string[] = [];
  for (const path of sources(API)) {
    const file = parse(path);
    const report = (node: ts.Node, what: string) => found.push(`${where(file, node)}: ${what}`);
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
