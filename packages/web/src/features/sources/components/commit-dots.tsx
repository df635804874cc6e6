import { commitDots, shortSha } from '@berth/core';
import type { LiveCommit } from '../../../resources/sources/source.hal.ts';
import './sources.css';

/**
 * spec 3 §2: one dot per live commit (newest first), at most 7, then '+N'. `total` counts them all when
 * only the newest were sent (home's top source).
 */
export function CommitDots({ commits, total }: { commits: readonly LiveCommit[]; total?: number }) {
  const { shown, more: unsent } = commitDots(commits);
  const more = total === undefined ? unsent : Math.max(0, total - shown.length);
  if (shown.length === 0) return <span className="muted">-</span>;
  return (
    <span className="commit-dots">
      {shown.map((commit) => {
        const label = `Commit ${shortSha(commit.sha)} on ${commit.ref}: ${commit.message}`;
        const content = (
          <>
            <span className="commit-dot" aria-hidden="true" />
            <span className="visually-hidden">{label}</span>
          </>
        );
        return commit.url ? (
          <a key={commit.sha} href={commit.url} target="_blank" rel="noreferrer" title={label}>
            {content}
          </a>
        ) : (
          <span key={commit.sha} title={label}>
            {content}
          </span>
        );
      })}
      {more > 0 ? <span className="commit-more">+{more}</span> : null}
    </span>
  );
}
