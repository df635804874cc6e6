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

/**
 * Takes rows in batches of `size` by id (`next(afterId)` answers the rows after an id, in id order) and
 * handles each; how many `handle` answered true. A row whose handling throws is reported to `onError`
 * and costs the others nothing.
 */
export async function inBatches<T>(
  next: (afterId: number) => Promise<T[]>,
  idOf: (row: T) => number,
  size: number,
  handle: (row: T) => Promise<boolean>,
  onError?: (error: unknown) => void,
): Promise<number> {
  let done = 0;
  let afterId = 0;
  for (;;) {
    const batch = await next(afterId);
    for (const row of batch) {
      try {
        if (await handle(row)) done++;
      } catch (error) {
        onError?.(error);
      }
    }
    const last = batch.at(-1);
    if (batch.length < size || last === undefined) return done;
    afterId = idOf(last);
  }
}
