import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * packages/server: the nearest folder with a package.json above this file. The same whether the server
 * runs from its sources (src/) or from its bundle (dist/), so files it reads at run time (migrations,
 * the console's build) are found from here, not from the importing file's own folder.
 */
export const serverRoot = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('The server found no package.json above its files');
    dir = up;
  }
  return dir;
})();
