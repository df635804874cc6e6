/**
 * A background pass run every interval, one at a time (a slow pass skips a beat rather than piling up),
 * with errors handed to `onError`. `stop` waits for the pass in progress.
 */
export function periodic(run: () => Promise<unknown>, onError?: (error: unknown) => void) {
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<void> | null = null;

  function pass(): Promise<void> {
    running ??= run()
      .then(() => undefined)
      .catch((error) => onError?.(error))
      .finally(() => {
        running = null;
      });
    return running;
  }

  return {
    pass,
    /** Runs a pass every interval (and one at once when `immediately`); a second start does nothing. */
    start(intervalMs: number, options: { immediately?: boolean } = {}) {
      if (timer) return;
      if (options.immediately) void pass();
      timer = setInterval(() => void pass(), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
