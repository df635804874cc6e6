import { CI_TOKEN_VARIABLE, gitPushCommands } from '@berth/core';
import { CopyableText } from '../../../components/ui/copyable-text.tsx';

/**
 * How to push an app's code to its git remote (Berth's own git over HTTP, docker stacks): the remote,
 * the commands by hand, and the command for CI, which reads the token from a secret.
 */
export function GitPushInstructions({ remote }: { remote: string }) {
  const commands = gitPushCommands(remote);
  return (
    <div className="section-stack">
      <section className="card card-body form-card" aria-labelledby="git-remote-title">
        <h2 className="section-title" id="git-remote-title">
          Git remote
        </h2>
        <CopyableText text={remote} label="the git remote" />
        <p className="muted">A push to main (or master) builds the app’s Dockerfile and deploys it.</p>
      </section>
      <section className="card card-body form-card" aria-labelledby="git-push-title">
        <h2 className="section-title" id="git-push-title">
          Push from your machine
        </h2>
        <CopyableText text={`${commands.addRemote}\n${commands.push}`} label="the push commands" />
        <p className="muted">
          When git asks, give any user name and an access token with scope manage as the password.
        </p>
      </section>
      <section className="card card-body form-card" aria-labelledby="git-ci-title">
        <h2 className="section-title" id="git-ci-title">
          Push from CI
        </h2>
        <CopyableText text={commands.ciPush} label="the CI push command" />
        <p className="muted">
          The token comes from the <code>{CI_TOKEN_VARIABLE}</code> secret through a credential helper, so it
          stays out of the command line, logs and <code>.git/config</code>. Run it in a full clone: a first
          push from a shallow one (GitHub Actions checks out with <code>fetch-depth: 1</code> unless told{' '}
          <code>fetch-depth: 0</code>) is refused.
        </p>
      </section>
    </div>
  );
}
