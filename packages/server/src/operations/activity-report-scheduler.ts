import { lastWholeWeek } from '@berth/core';
import { type ActivityReportsService, newReport } from '../api/activity-reports/activity-reports.service.ts';

/** Environments, or pending reports, looked at per query: a pass grows in steps, never as one answer. */
const BATCH = 500;

/**
 * Weekly activity reports (issue 38). Each pass asks for the last whole week's report of every
 * environment that has none (the unique index of environment and window keeps one, however many
 * processes run this), then makes the pending reports, on-demand ones included, one per organization
 * per round so that no tenant's many environments delay another's report.
 */
export function createActivityReportScheduler(deps: {
  reports: Pick<
    ActivityReportsService,
    'environmentsWithoutReport' | 'insertPending' | 'nextPending' | 'build' | 'recordFailure'
  >;
  /** The clock (tests move it instead of waiting). */
  now?: () => Date;
  onError?: (error: unknown) => void;
}) {
  const { reports } = deps;
  const now = deps.now ?? (() => new Date());

  async function scheduleWeekly(at: Date): Promise<number> {
    const week = lastWholeWeek(at);
    let scheduled = 0;
    let afterId = 0;
    for (;;) {
      const missing = await reports.environmentsWithoutReport(week, afterId, BATCH);
      scheduled += await reports.insertPending(
        missing.map((environment) => newReport(environment, week, 'weekly')),
      );
      const last = missing.at(-1);
      if (!last || missing.length < BATCH) return scheduled;
      afterId = last.id;
    }
  }

  async function buildPending(): Promise<number> {
    let built = 0;
    // Reports that failed in this pass: tried once a pass, and meanwhile their organization's next goes.
    const failed = new Set<number>();
    for (;;) {
      const turn = await reports.nextPending(BATCH, [...failed]);
      let builtThisTurn = 0;
      let failedThisTurn = 0;
      for (const report of turn) {
        try {
          if (await reports.build(report)) builtThisTurn++;
        } catch (error) {
          // One report that cannot be made costs the others nothing: it is tried again, and after its
          // last try marked failed, so its organization's next report is not held behind it forever.
          deps.onError?.(error);
          failed.add(report.id);
          failedThisTurn++;
          await reports.recordFailure(report).catch((failure: unknown) => deps.onError?.(failure));
        }
      }
      built += builtThisTurn;
      // Nothing left, or only reports another process is making: the pass is over. After a failure the
      // next turn brings its organization's next report (each report is tried once a pass).
      if (builtThisTurn === 0 && failedThisTurn === 0) return built;
    }
  }

  /** One pass: the weekly reports that are due, then every pending report. */
  async function runOnce(options: { schedule: boolean } = { schedule: true }) {
    const scheduled = options.schedule ? await scheduleWeekly(now()) : 0;
    const built = await buildPending();
    return { scheduled, built };
  }

  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<void> | null = null;
  // Asked for while a pass runs: one more pass right after it (a report requested meanwhile is made then).
  let again = false;
  let scheduleDue = false;

  /** A pass now, or right after the one in progress; `schedule` also looks for due weekly reports. */
  function pass(schedule: boolean): Promise<void> {
    if (schedule) scheduleDue = true;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        const withSchedule = scheduleDue;
        scheduleDue = false;
        try {
          await runOnce({ schedule: withSchedule });
        } catch (error) {
          deps.onError?.(error);
        }
      } while (again);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    runOnce,
    /** Runs a pass now and then every `intervalMs`. */
    start(intervalMs: number): void {
      if (timer) return;
      void pass(true);
      timer = setInterval(() => void pass(true), intervalMs);
      timer.unref();
    },
    /** Makes the pending reports now (one was asked for), without looking for weekly ones. */
    poke(): Promise<void> {
      return pass(false);
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
export type ActivityReportScheduler = ReturnType<typeof createActivityReportScheduler>;
