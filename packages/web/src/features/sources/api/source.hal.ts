import { type HalResource, idOf } from '../../../lib/hal.ts';

export interface LiveCommitHal {
  sha: string;
  ref: string;
  message: string;
  date: string;
  url: string;
}

/** contract §4.3 source, plus Berth's row figures (app_count, deployment_count, live_commits). */
export interface SourceHal extends HalResource {
  display_name?: string | null;
  url?: string | null;
  app_count?: number;
  deployment_count?: number;
  live_commits?: LiveCommitHal[] | null;
  created_at?: string;
  updated_at?: string;
}

export interface LiveCommit {
  sha: string;
  ref: string;
  message: string;
  date: string;
  url: string;
}

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

export function fromSourceHal(source: SourceHal): Source {
  return {
    id: idOf(source),
    displayName: source.display_name ?? null,
    url: source.url ?? '',
    apps: source.app_count ?? 0,
    deployments: source.deployment_count ?? 0,
    liveCommits: [...(source.live_commits ?? [])].sort((a, b) => b.date.localeCompare(a.date)),
    createdAt: source.created_at ?? '',
  };
}

export function sourceName(source: Pick<Source, 'displayName'>): string {
  return source.displayName || 'Unknown';
}
