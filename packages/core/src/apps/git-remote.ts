/**
 * The git remote of an app on a docker stack: Berth's own git over HTTP (the server's `/git` routes),
 * named by environment and app handle.
 */
export function httpGitRemote(appUrl: string, environmentHandle: string, appHandle: string): string {
  return `${appUrl}/git/${encodeURIComponent(environmentHandle)}/${encodeURIComponent(appHandle)}.git`;
}
