/**
 * api/ read with TypeScript's parser (syntax only, no type checker), for the structure tests that
 * judge its queries (typed-rows, query-constants): its files, each parsed once, and where a
 * finding is.
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
