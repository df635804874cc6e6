import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Hostile input costs nothing (issue: no request stalls the server): every regular expression the
 * server and core run is checked by recheck, the ReDoS checker, and must be linear. The test reads the
 * source, so a new pattern anywhere is checked without being listed here.
 */
const packagesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const roots = [path.join(packagesDir, 'core/src'), path.join(packagesDir, 'server/src')];

interface Found {
  where: string;
  source: string;
  flags: string;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    // Tests never see a request; what they match is their own output.
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every regular expression literal and every `RegExp(...)` of a file; a RegExp built from anything but a literal is reported as unknown. */
function regexesOf(file: string): { found: Found[]; unknown: string[] } {
  const text = fs.readFileSync(file, 'utf8');
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Found[] = [];
  const unknown: string[] = [];
  const where = (node: ts.Node) =>
    `${path.relative(packagesDir, file)}:${sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isRegularExpressionLiteral(node)) {
      const literal = node.text;
      const end = literal.lastIndexOf('/');
      found.push({ where: where(node), source: literal.slice(1, end), flags: literal.slice(end + 1) });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'RegExp'
    ) {
      const [pattern, flags] = node.arguments ?? [];
      if (pattern && ts.isStringLiteralLike(pattern) && (!flags || ts.isStringLiteralLike(flags))) {
        found.push({ where: where(node), source: pattern.text, flags: flags?.text ?? '' });
      } else {
        unknown.push(where(node));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return { found, unknown };
}

const all = roots.flatMap(sourceFiles).map(regexesOf);
const patterns = all.flatMap((file) => file.found);

describe('regular expressions of core and server', () => {
  it('finds the patterns it is meant to check', () => {
    // A collector that finds nothing would pass for the wrong reason.
    expect(patterns.length).toBeGreaterThan(20);
    expect(patterns.some((p) => p.where.startsWith('core/src/identity/identity.schema.ts'))).toBe(true);
  });

  it('builds no RegExp from a value the test cannot read', () => {
    expect(all.flatMap((file) => file.unknown)).toEqual([]);
  });

  it('has none that backtracks super-linearly (recheck)', () => {
    const unsafe = patterns
      // The automaton checker proves linearity; the fuzzer (recheck's fallback for patterns it cannot
      // analyse) only samples, and under load may time out. A pattern must be simple enough to prove.
      .map((p) => ({ ...p, result: checkSync(p.source, p.flags, { checker: 'automaton', timeout: 30_000 }) }))
      .filter((p) => p.result.status !== 'safe')
      .map(
        (p) =>
          `${p.where} /${p.source}/${p.flags}: ${p.result.status}${p.result.status === 'vulnerable' ? ` (${p.result.complexity.type})` : ''}`,
      );
    expect(unsafe).toEqual([]);
  }, 120_000);
});
