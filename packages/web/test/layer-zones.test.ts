import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The layer zones are noRestrictedImports patterns over import specifiers in biome.json `overrides`.
// A renamed folder or a reordered override would make them match nothing without any error, so this
// lints throwaway files against the repository's real configuration and expects each breach reported.
// Note for editing biome.json: for one file, the last matching override's options replace the earlier
// ones, so each web override repeats every group that applies to it; the per-depth feature overrides
// exist because a sibling feature is `../<noun>` from a feature's root but `../../<noun>` from api/.
// resources/ (one wire deserializer, key set and shared hook per resource) sits between features and
// lib/components: features and app import it; it imports neither, and lib/components do not import it.
// It lives in the web suite because most zones are the console's; the core and server ones ride along.

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const biome = join(root, 'node_modules/.bin/biome');
const RULE = 'lint/style/noRestrictedImports';

/** [file, import specifier]: every one breaks a zone. */
const VIOLATIONS: [string, string][] = [
  ['packages/core/src/apps/uses-server.ts', '@berth/server'],
  ['packages/core/src/apps/uses-web.ts', '@berth/web'],
  ['packages/core/src/apps/uses-server-source.ts', '../../../server/src/app.ts'],
  ['packages/core/src/apps/reads-files.ts', 'node:fs'],
  ['packages/core/src/apps/opens-sockets.ts', 'node:net'],
  ['packages/core/src/apps/runs-processes.ts', 'node:child_process'],
  ['packages/core/src/apps/reads-files-bare.ts', 'fs/promises'],
  ['packages/server/src/api/apps/uses-web.ts', '@berth/web'],
  ['packages/server/src/api/apps/uses-web-source.ts', '../../../../web/src/lib/paths.ts'],
  ['packages/web/src/app/routes/apps/uses-server.tsx', '@berth/server'],
  ['packages/web/test/uses-server.ts', '@berth/server'],
  ['packages/web/src/features/apps/components/uses-server.tsx', '@berth/server'],
  ['packages/web/src/features/apps/components/uses-app.tsx', '../../../app/router.tsx'],
  ['packages/web/src/features/apps/api/uses-shell.ts', '../../../app/shell/use-console.ts'],
  ['packages/web/src/features/apps/components/uses-feature.tsx', '../../roles/api/use-roles.ts'],
  ['packages/web/src/features/apps/components/uses-feature-root.tsx', '../../roles'],
  ['packages/web/src/features/apps/api/uses-feature-via-src.ts', '../../../features/roles/api/use-roles.ts'],
  ['packages/web/src/features/apps/uses-feature-from-root.ts', '../roles/api/use-roles.ts'],
  ['packages/web/src/features/apps/components/rows/uses-feature-deep.tsx', '../../../roles/api/use-roles.ts'],
  ['packages/web/src/components/ui/uses-feature.tsx', '../../features/apps/api/use-apps.ts'],
  ['packages/web/src/components/ui/uses-app.tsx', '../../app/router.tsx'],
  ['packages/web/src/lib/uses-feature.ts', '../features/apps/api/use-apps.ts'],
  ['packages/web/src/lib/uses-app.ts', '../app/shell/use-console.ts'],
  ['packages/web/src/resources/apps/uses-feature.ts', '../../features/apps/api/use-apps.ts'],
  ['packages/web/src/resources/apps/uses-app.ts', '../../app/shell/use-console.ts'],
  ['packages/web/src/resources/apps/uses-server.ts', '@berth/server'],
  ['packages/web/src/components/ui/uses-resource.tsx', '../../resources/apps/app.hal.ts'],
  ['packages/web/src/lib/uses-resource.ts', '../resources/operations/use-operation.ts'],
];

/** [file, import specifier]: imports the layers allow, which must stay quiet. */
const ALLOWED: [string, string][] = [
  ['packages/core/src/apps/uses-zod.ts', 'zod'],
  ['packages/core/src/apps/uses-core.ts', '../permissions/actions.ts'],
  ['packages/server/src/api/apps/uses-core.ts', '@berth/core'],
  ['packages/server/src/api/apps/uses-fs.ts', 'node:fs'],
  ['packages/web/src/app/routes/apps/uses-feature.tsx', '../../../features/apps/api/use-apps.ts'],
  ['packages/web/src/app/routes/apps/uses-app.tsx', '../../shell/use-console.ts'],
  ['packages/web/src/features/apps/components/uses-own-api.tsx', '../api/use-apps.ts'],
  ['packages/web/src/features/apps/components/uses-paths.tsx', '../../../lib/paths.ts'],
  ['packages/web/src/features/apps/components/uses-ui.tsx', '../../../components/ui/button.tsx'],
  ['packages/web/src/features/apps/components/uses-core.tsx', '@berth/core'],
  ['packages/web/src/features/apps/uses-own-api.ts', './api/use-apps.ts'],
  ['packages/web/src/features/apps/components/rows/uses-own-api.tsx', '../../api/use-apps.ts'],
  ['packages/web/src/components/ui/uses-lib.tsx', '../../lib/paths.ts'],
  ['packages/web/src/lib/uses-ui.ts', '../components/ui/button.tsx'],
  ['packages/web/src/resources/apps/uses-lib.ts', '../../lib/hal.ts'],
  ['packages/web/src/resources/apps/uses-other-resource.ts', '../operations/operation.hal.ts'],
  ['packages/web/src/resources/apps/uses-core.ts', '@berth/core'],
  ['packages/web/src/features/apps/api/uses-resource.ts', '../../../resources/apps/app.hal.ts'],
  [
    'packages/web/src/features/apps/components/rows/uses-resource.tsx',
    '../../../../resources/apps/app.hal.ts',
  ],
  ['packages/web/src/app/routes/apps/uses-resource.tsx', '../../../resources/operations/use-operation.ts'],
];

interface Diagnostic {
  category: string;
  location: { path: string };
}

function restrictedImportsIn(cwd: string, target: string): Diagnostic[] {
  // Biome exits non-zero when it reports errors; the JSON report is on stdout either way.
  let stdout: string;
  try {
    stdout = execFileSync(
      biome,
      ['lint', '--only=style/noRestrictedImports', '--reporter=json', '--max-diagnostics=none', target],
      { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
  } catch (error) {
    stdout = (error as { stdout: string }).stdout;
  }
  const report = JSON.parse(stdout) as { diagnostics: Diagnostic[] };
  return report.diagnostics.filter((diagnostic) => diagnostic.category === RULE);
}

describe('layer zones (biome.json noRestrictedImports)', () => {
  let sandbox = '';
  let reported = new Set<string>();

  beforeAll(() => {
    sandbox = mkdtempSync(join(tmpdir(), 'berth-layer-zones-'));
    const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as Record<string, unknown>;
    // The schema path is relative to the repository; the sandbox has no node_modules.
    delete config.$schema;
    writeFileSync(join(sandbox, 'biome.json'), JSON.stringify(config));
    for (const [file, specifier] of [...VIOLATIONS, ...ALLOWED]) {
      mkdirSync(dirname(join(sandbox, file)), { recursive: true });
      writeFileSync(join(sandbox, file), `import * as imported from '${specifier}';\nexport { imported };\n`);
    }
    reported = new Set(restrictedImportsIn(sandbox, '.').map((diagnostic) => diagnostic.location.path));
  }, 60_000);

  afterAll(() => {
    if (sandbox) rmSync(sandbox, { recursive: true, force: true });
  });

  it.each(VIOLATIONS)('reports %s importing %s', (file) => {
    expect(reported).toContain(file);
  });

  it.each(ALLOWED)('allows %s importing %s', (file) => {
    expect(reported).not.toContain(file);
  });

  it('finds no breach in the repository itself', () => {
    expect(restrictedImportsIn(root, 'packages').map((diagnostic) => diagnostic.location.path)).toEqual([]);
  }, 60_000);
});
