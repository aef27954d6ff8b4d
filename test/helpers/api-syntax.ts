/**
 * api/ read with TypeScript's parser (syntax only, no type checker), for the structure tests that
 * judge its queries (typed-rows, query-constants): its files, each parsed once, and a per-family
 * ratchet over what they find.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const API = join(ROOT, 'api');

/** Every .ts file under `dir`. */
export function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.ts$/.test(entry.name)) yield path;
  }
}

const parsed = new Map<string, ts.SourceFile>();
/** A file's syntax tree, parsed once. */
export function parse(path: string): ts.SourceFile {
  let file = parsed.get(path);
  if (!file) {
    file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(path, file);
  }
  return file;
}

/** Where a node is, as `path:line` from the root. */
export function where(file: ts.SourceFile, node: ts.Node): string {
  const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
  return `${relative(ROOT, file.fileName)}:${line + 1}`;
}

/**
 * A ratchet per family folder of api/ (a file at its top is its own family) over findings written
 * `api/<family>/…:line: what`: the families over their allowed count, with what was found there,
 * and the listed families now under it (the list must follow the count down).
 */
export function ratchet(found: readonly string[], allowed: ReadonlyMap<string, number>) {
  const counts = new Map<string, number>();
  for (const row of found) {
    const family = row.split(':')[0]?.split('/')[1] ?? '';
    counts.set(family, (counts.get(family) ?? 0) + 1);
  }
  const grown = [...counts]
    .filter(([family, count]) => count > (allowed.get(family) ?? 0))
    .map(([family, count]) => ({
      family: `api/${family}: ${count} found (allowed ${allowed.get(family) ?? 0})`,
      found: found.filter((row) => row.startsWith(`api/${family}`)),
    }));
  const stale = [...allowed]
    .filter(([family, count]) => (counts.get(family) ?? 0) < count)
    .map(([family, count]) => `api/${family}: ${counts.get(family) ?? 0} now, listed ${count}`);
  return { grown, stale };
}
