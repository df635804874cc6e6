import type { RetentionPolicyValues } from '@berth/core';

/** An automatic backup as the retention policy sees it. */
export interface RetainedBackup {
  id: number;
  createdAt: Date;
}

/**
 * spec 2 §3 and §9: which of one database's automatic backups a policy no longer keeps. It keeps the
 * newest backup of each of the `daily` most recent days that have one, of the `monthly` most recent
 * months and of the `yearly` most recent years (UTC); a backup kept for any reason stays. Manual and
 * final backups are never given here: a policy does not delete them.
 */
export function backupsToPrune(
  backups: readonly RetainedBackup[],
  policy: Pick<RetentionPolicyValues, 'daily' | 'monthly' | 'yearly'>,
): number[] {
  const newestFirst = [...backups].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id,
  );
  const kept = new Set<number>();
  const keepNewestPer = (period: (at: Date) => string, count: number) => {
    const seen = new Set<string>();
    for (const backup of newestFirst) {
      if (seen.size >= count) break;
      const key = period(backup.createdAt);
      if (seen.has(key)) continue;
      seen.add(key);
      kept.add(backup.id);
    }
  };
  keepNewestPer((at) => at.toISOString().slice(0, 10), policy.daily);
  keepNewestPer((at) => at.toISOString().slice(0, 7), policy.monthly);
  keepNewestPer((at) => at.toISOString().slice(0, 4), policy.yearly);
  return newestFirst.filter((backup) => !kept.has(backup.id)).map((backup) => backup.id);
}
