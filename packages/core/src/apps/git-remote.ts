/**
 * The git remote of an app on a docker stack: Berth's own git over HTTP (the server's `/git` routes),
 * named by environment and app handle.
 */
export function httpGitRemote(appUrl: string, environmentHandle: string, appHandle: string): string {
  return `${appUrl}/git/${encodeURIComponent(environmentHandle)}/${encodeURIComponent(appHandle)}.git`;
}

/** Where CI keeps the access token git pushes with: a secret of the pipeline, never in the code. */
export const CI_TOKEN_VARIABLE = 'BERTH_TOKEN';

/**
 * A git credential helper that answers git's password prompt with the token in $BERTH_TOKEN: the token
 * stays out of the command line, the shell history and .git/config (a token in the remote's URL ends up
 * in all three). Git runs it through the shell, which reads the variable when git asks.
 */
export const CI_CREDENTIAL_HELPER = `!f() { echo username=berth; echo "password=$${CI_TOKEN_VARIABLE}"; }; f`;

/** The commands that push an app's code to its remote: by hand (git asks for the token), and from CI. */
export function gitPushCommands(remote: string, branch = 'main') {
  return {
    addRemote: `git remote add berth ${remote}`,
    push: `git push berth ${branch}`,
    // The empty helper first drops any configured ones, so a password stored for the host cannot win.
    ciPush: `git -c credential.helper= -c credential.helper='${CI_CREDENTIAL_HELPER}' push ${remote} HEAD:refs/heads/${branch}`,
  };
}
