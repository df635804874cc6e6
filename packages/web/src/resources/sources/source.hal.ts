import type { SourceResource } from '@berth/core';
import { idOf } from '../../lib/hal.ts';

/** A distinct commit the source's apps currently run (spec 3 §3). */
export interface LiveCommit {
  sha: string;
  ref: string;
  message: string;
  date: string;
  url: string;
}

/** contract §4.3 source, with Berth's row figures (spec 3 §3). */
export interface Source {
  id: string;
  /** spec 3 §3: null is shown as 'Unknown'. */
  displayName: string | null;
  url: string;
  apps: number;
  deployments: number;
  /** Unique commits, newest first. */
  liveCommits: LiveCommit[];
  createdAt: string;
}

export function fromSourceResource(source: SourceResource): Source {
  return {
    id: idOf(source),
    displayName: source.display_name,
    url: source.url,
    apps: source.app_count,
    deployments: source.deployment_count,
    liveCommits: [...source.live_commits].sort((a, b) => b.date.localeCompare(a.date)),
    createdAt: source.created_at,
  };
}

export function sourceName(source: Pick<Source, 'displayName'>): string {
  return source.displayName || 'Unknown';
}
