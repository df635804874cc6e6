// How `npm start` runs the bundled server, shared with `npm run bench` and `npm run bench:web`, which must
// measure the same.

/** V8's old-space limit for the server, in MB, unless the operator's NODE_OPTIONS sets one. */
export const SERVER_HEAP_MB = 512;

/**
 * The server process's environment: the caller's, plus two memory settings.
 * - glibc's malloc gives large blocks their own mappings (32 KB and up, the default moves up to 32 MB).
 *   V8 compiles PGlite's WebAssembly and the server's hot code in zones of 32 KB segments; glibc kept the
 *   60 to 90 MB they add up to once freed, so the server idled near 265 MB instead of 195 MB.
 * - V8's heap is capped at SERVER_HEAP_MB. V8 sizes its heap's growth by its limit, which it takes from
 *   the machine's memory (4 GB on a large one): a burst of 5,000-row lists then left 100 MB and more of
 *   garbage standing before a full collection (peak 424 MB, against 303 MB capped). Thirty such pages
 *   in flight at once stay well inside 512 MB (`npm run bench`).
 * The start-up lists answer as fast either way. An operator's own MALLOC_MMAP_THRESHOLD_ and
 * --max-old-space-size win.
 * @param {NodeJS.ProcessEnv} env
 * @returns {NodeJS.ProcessEnv}
 */
export function serverEnvironment(env) {
  const options = env.NODE_OPTIONS ?? '';
  // V8 reads the flag with dashes or underscores.
  const heap = /--max[-_]old[-_]space[-_]size\b/.test(options)
    ? options
    : `${options} --max-old-space-size=${SERVER_HEAP_MB}`.trim();
  return { MALLOC_MMAP_THRESHOLD_: '32768', ...env, NODE_OPTIONS: heap };
}
