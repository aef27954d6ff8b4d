/**
 * The module graph of the service's code, read by TypeScript's own parser at build time and
 * written to dist/module-graph.json (`npm run build` calls `writeModuleGraph`). The boundary
 * inventory (api/boundaries/inventory.ts) traces each published surface through it; the running
 * service never parses source text itself, and loads no parser.
 *
 * Per file: its content hash (so a stale graph is detected, not trusted), its runtime imports and
 * re-exports with the names they take (type-only ones call nothing and are left out), the
 * `apiGet(Astro, '/api/…')` reads of an Astro page, and the route keys (`defineRoute('GET /x', …)`)
 * and MCP tool names (`defineTool({ name: 'civitas_x', … })`) it defines.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import ts from 'typescript';
import {
  contentHash,
  GRAPH_FILE,
  readModuleGraph,
  scannedFiles,
  type ModuleGraph,
  type ModuleInfo,
} from '../api/boundaries/module-graph.ts';

/** The string a literal argument holds: a plain string, or the text before a template's first `${`. */
function literalText(node: ts.Node | undefined): string | null {
  if (!node) return null;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text;
  return null;
}

function importedNames(clause: ts.ImportClause | undefined): string[] {
  if (!clause || clause.isTypeOnly) return [];
  const names: string[] = [];
  if (clause.name) names.push('default');
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.push('*');
  else if (bindings)
    for (const element of bindings.elements)
      if (!element.isTypeOnly) names.push((element.propertyName ?? element.name).text);
  return names;
}

function exportedNames(clause: ts.NamedExportBindings | undefined): string[] {
  if (!clause || ts.isNamespaceExport(clause)) return ['*'];
  return clause.elements
    .filter((element) => !element.isTypeOnly)
    .map((element) => (element.propertyName ?? element.name).text);
}

/** An Astro file's code is its frontmatter; the markup below it imports nothing. */
function codeOf(path: string, source: string): string {
  return path.endsWith('.astro') ? (source.match(/^---\r?\n([\s\S]*?)\r?\n---/)?.[1] ?? '') : source;
}

/** Parses one module (`path` is its repository path, which relative specifiers resolve against). */
export function parseModule(path: string, source: string): ModuleInfo {
  const file = ts.createSourceFile(
    path,
    codeOf(path, source),
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.TS,
  );
  const resolveSpec = (node: ts.Expression | undefined): string | null => {
    const spec = literalText(node);
    if (!spec?.startsWith('.')) return null;
    return posix.join(posix.dirname(path), spec.split('?')[0] ?? spec);
  };
  const info: ModuleInfo = { path, imports: [], apiReads: [], routes: [], tools: [] };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const target = resolveSpec(node.moduleSpecifier);
      if (target && !node.importClause?.isTypeOnly)
        info.imports.push({ target, names: importedNames(node.importClause) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      const target = resolveSpec(node.moduleSpecifier);
      if (target) info.imports.push({ target, names: exportedNames(node.exportClause) });
    } else if (ts.isCallExpression(node)) {
      const [first, second] = node.arguments;
      const callee = ts.isIdentifier(node.expression) ? node.expression.text : null;
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const target = resolveSpec(first);
        if (target) info.imports.push({ target, names: ['*'] });
      } else if (callee === 'apiGet' && first && ts.isIdentifier(first) && first.text === 'Astro') {
        const read = literalText(second)?.split('?')[0];
        if (read) info.apiReads.push(read);
      } else if (callee === 'defineRoute') {
        const key = literalText(first);
        if (key) info.routes.push(key);
      } else if (callee === 'defineTool' && first && ts.isObjectLiteralExpression(first)) {
        for (const property of first.properties)
          if (ts.isPropertyAssignment(property) && property.name.getText(file) === 'name') {
            const name = literalText(property.initializer);
            if (name) info.tools.push(name);
          }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return info;
}

/** The graph of every scanned file under `root`. */
export function buildModuleGraph(root: string): ModuleGraph {
  const files: ModuleGraph['files'] = {};
  for (const path of scannedFiles(root)) {
    const source = readFileSync(join(root, path), 'utf8');
    files[path] = { sha256: contentHash(source), ...parseModule(path, source) };
  }
  return { files };
}

/** Writes dist/module-graph.json for the code under `root` (the build's step). */
export function writeModuleGraph(root: string, dist: string): number {
  const graph = buildModuleGraph(root);
  writeFileSync(join(dist, GRAPH_FILE), JSON.stringify(graph) + '\n');
  return Object.keys(graph.files).length;
}

/**
 * Rewrites dist/module-graph.json unless it already describes the code on disk (the test suite's
 * setup calls it, so a test run after an edit traces the edited code without a whole build).
 */
export function refreshModuleGraph(root: string): void {
  try {
    readModuleGraph(root);
  } catch {
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeModuleGraph(root, join(root, 'dist'));
  }
}

// `node scripts/module-graph.ts` writes the graph without a whole build (dist/ must exist).
if (
  process.argv[1] &&
  dirname(process.argv[1]) === import.meta.dirname &&
  process.argv[1].endsWith('module-graph.ts')
) {
  const root = join(import.meta.dirname, '..');
  console.log(`module graph: ${writeModuleGraph(root, join(root, 'dist'))} files`);
}
