import { buildPgliteTemplate } from '../db/pglite-template.ts';

/** Once per test run: every test file's PGlite database then starts from the template, not initdb. */
export default async function setup(): Promise<void> {
  await buildPgliteTemplate();
}
