// How `npm start` runs the bundled server, shared with `npm run bench:web`, which must measure the same.

/**
 * The server process's environment: the caller's, plus glibc's malloc told to give large blocks their
 * own mappings (32 KB and up, the default moves up to 32 MB). V8 compiles PGlite's WebAssembly and the
 * server's hot code in zones of 32 KB segments; glibc kept the 60 to 90 MB they add up to once freed,
 * so the server idled near 265 MB instead of 195 MB. The start-up lists answered as fast either way
 * (`npm run bench`). An operator's own MALLOC_MMAP_THRESHOLD_ wins.
 * @param {NodeJS.ProcessEnv} env
 * @returns {NodeJS.ProcessEnv}
 */
export function serverEnvironment(env) {
  return { MALLOC_MMAP_THRESHOLD_: '32768', ...env };
}
