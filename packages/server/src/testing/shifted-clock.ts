// Test-only preload (`node --import ./src/testing/shifted-clock.ts`): this process's clock runs
// BERTH_TEST_CLOCK_OFFSET_MS ahead (or behind, when negative), as a worker on a badly set machine would.
const offsetMs = Number(process.env.BERTH_TEST_CLOCK_OFFSET_MS ?? 0);
const RealDate = Date;

class ShiftedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(RealDate.now() + offsetMs);
    else super(...(args as [string | number | Date]));
  }

  static override now(): number {
    return RealDate.now() + offsetMs;
  }
}

globalThis.Date = ShiftedDate as DateConstructor;
