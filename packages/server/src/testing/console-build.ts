import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * A built console in a temporary folder, holding `files` (paths under it), removed after the test file's
 * other clean-up. Call it at the top of the file.
 */
export function consoleBuild(files: Record<string, string>, prefix = 'berth-web-'): string {
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(webDist, name)), { recursive: true });
    fs.writeFileSync(path.join(webDist, name), content);
  }
  afterAll(() => fs.rmSync(webDist, { recursive: true, force: true }));
  return webDist;
}
