// spec 2 §3, §4 and §9: how a deployment and a source commit are shown.

export type DeploymentBadge = 'Building' | 'Queued' | 'Failed' | 'Deployed' | 'Not deployed';

/** spec 2 §4 deployment badge: Building when running, Queued, Failed, Deployed, otherwise Not deployed. */
export function deploymentBadge(status: string | null | undefined): DeploymentBadge {
  switch (status) {
    case 'running':
      return 'Building';
    case 'queued':
      return 'Queued';
    case 'failed':
      return 'Failed';
    case 'succeeded':
      return 'Deployed';
    default:
      return 'Not deployed';
  }
}

/** spec 2 §3: a deployment with no docker image is a Dockerfile build. */
export function deploymentImageLabel(dockerImage: string | null | undefined): string {
  return dockerImage ? dockerImage : 'Dockerfile Build';
}

/** spec 2 §9: a commit SHA is shown as 7 characters. */
export const COMMIT_SHA_LENGTH = 7;
export function shortSha(sha: string | null | undefined): string {
  return (sha ?? '').slice(0, COMMIT_SHA_LENGTH);
}

/** spec 2 §9: at most 7 commit dots per source, then '+N'. */
export const MAX_COMMIT_DOTS = 7;
export function commitDots<T>(commits: readonly T[]): { shown: T[]; more: number } {
  return {
    shown: commits.slice(0, MAX_COMMIT_DOTS),
    more: Math.max(0, commits.length - MAX_COMMIT_DOTS),
  };
}
