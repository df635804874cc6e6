import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every string a schema of core or the server accepts has a maximum length, checked before any pattern
 * or refinement: each `z.string(...)` chain calls `.max(n, { ..., abort: true })` (or `.length`) before
 * anything that looks at the text. Zod runs later checks even after one failed unless it aborts, so the
 * bound alone is not enough. Read from the source, so a new schema is held to it unlisted.
 */
const packagesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const roots = [path.join(packagesDir, 'core/src'), path.join(packagesDir, 'server/src')];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    // Wire shapes (`*.hal.ts`, core's `hal/`) describe answers the server sends; no request is read by them.
    const answersOnly = entry.name.endsWith('.hal.ts') || full.endsWith(path.join('core/src/hal/hal.ts'));
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !answersOnly ? [full] : [];
  });
}

/** Checks that may run on the text before its length is known to be bounded. */
const HARMLESS_BEFORE_MAX = new Set([
  'trim',
  'toLowerCase',
  'min',
  'nonempty',
  'optional',
  'nullish',
  'nullable',
]);

/** A `.max(n, { abort: true })` call: its failure stops the checks after it. */
function abortsOnFailure(call: ts.CallExpression): boolean {
  const options = call.arguments[1];
  return (
    options !== undefined &&
    ts.isObjectLiteralExpression(options) &&
    options.properties.some(
      (property) =>
        ts.isPropertyAssignment(property) &&
        property.name.getText() === 'abort' &&
        property.initializer.kind === ts.SyntaxKind.TrueKeyword,
    )
  );
}

/** `z.string()` calls whose chain has no `.max`/`.length`, or runs another check first. */
function unboundedStrings(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const problems: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      node.expression.expression.text === 'z' &&
      node.expression.name.text === 'string'
    ) {
      const chain: string[] = [];
      const aborting: boolean[] = [];
      let current: ts.Node = node;
      while (
        ts.isPropertyAccessExpression(current.parent) &&
        current.parent.expression === current &&
        ts.isCallExpression(current.parent.parent)
      ) {
        chain.push(current.parent.name.text);
        aborting.push(abortsOnFailure(current.parent.parent));
        current = current.parent.parent;
      }
      const bound = chain.findIndex(
        (name, index) => (name === 'max' || name === 'length') && aborting[index],
      );
      const early = chain
        .slice(0, bound === -1 ? chain.length : bound)
        .filter((name) => !HARMLESS_BEFORE_MAX.has(name));
      if (bound === -1 || early.length > 0) {
        const line = sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        problems.push(
          `${path.relative(packagesDir, file)}:${line} z.string()${chain.map((name) => `.${name}`).join('')}`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return problems;
}

const files = roots.flatMap(sourceFiles);

describe('string schemas of core and server', () => {
  it('reads the schemas it is meant to check', () => {
    expect(files.some((file) => file.endsWith('identity.schema.ts'))).toBe(true);
    expect(files.some((file) => file.endsWith('tokens.routes.ts'))).toBe(true);
  });

  it('bound every string before any other check runs', () => {
    expect(files.flatMap(unboundedStrings)).toEqual([]);
  });
});
