import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// What a console module loads with it, read from the sources: its static imports that carry code (a
// type-only import is erased, a lazy `import()` starts another chunk). Tests use it to check what a page's
// chunk can hold without building the console.

export interface StaticImport {
  /** The imported file, absolute. */
  file: string;
  /** The names it imports (value bindings only). */
  names: string[];
}

function isTypeOnly(declaration: ts.ImportDeclaration): boolean {
  const clause = declaration.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  // `import { type A, type B } from` carries no value: the build drops it.
  return (
    !clause.name &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

const parsed = new Map<string, StaticImport[]>();

/** A module's own relative static imports that carry code (packages are left out). */
export function staticImports(file: string): StaticImport[] {
  const known = parsed.get(file);
  if (known) return known;
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: StaticImport[] = [];
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined;
    let names: string[] = [];
    if (ts.isImportDeclaration(statement) && !isTypeOnly(statement)) {
      specifier = statement.moduleSpecifier;
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        names = bindings.elements
          .filter((element) => !element.isTypeOnly)
          .map((element) => element.name.text);
      }
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      specifier = statement.moduleSpecifier;
    }
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
      found.push({ file: path.resolve(path.dirname(file), specifier.text), names });
    }
  }
  parsed.set(file, found);
  return found;
}

/** Every module the entries load with them (themselves included). */
export function staticGraph(...entries: string[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...entries];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    if (/\.tsx?$/.test(file)) pending.push(...staticImports(file).map((item) => item.file));
  }
  return seen;
}
