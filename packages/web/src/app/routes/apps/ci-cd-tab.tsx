import { ciTokenName } from '@berth/core';
import { Banner } from '../../../components/ui/banner.tsx';
import { GitPushInstructions } from '../../../features/apps/components/git-push-instructions.tsx';
import { CiTokenPanel } from '../../../features/personal-access-tokens/components/ci-token-panel.tsx';
import type { App } from '../../../resources/apps/app.hal.ts';
import { isSimulated, stackOfEnvironment } from '../../../resources/stacks/stack.hal.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * The app's CI/CD tab (spec 2 §2 /apps/{id}/ci-cd): its git remote with the exact commands that push to
 * it, and a token for CI. Only Berth's own git over HTTP (docker stacks) is a remote that exists; a
 * simulated stack's app has none, and the tab says so rather than show an address nothing answers.
 */
export function CiCdTab({ app }: { app: App }) {
  const { environments, allStacks } = useConsoleContext();
  const environment = environments.find((item) => item.id === app.environmentId);
  const stack = stackOfEnvironment(allStacks, environments, app.environmentId);
  const remote = app.gitRepo.startsWith('https://') || app.gitRepo.startsWith('http://') ? app.gitRepo : null;

  if (!remote) {
    return (
      <Banner variant="info" title="No git remote">
        {stack && isSimulated(stack)
          ? `This app runs on ${stack.name}, a simulated stack: it builds no code, so there is nothing to push to.`
          : 'This app has no git remote of Berth’s.'}{' '}
        Git pushes deploy apps on docker stacks (a Berth started with BERTH_RUNTIME=docker); here, deploy a
        git ref with the Deploy button.
      </Banner>
    );
  }
  return (
    <div className="section-stack">
      <GitPushInstructions remote={remote} />
      <section className="card card-body form-card" aria-labelledby="ci-token-title">
        <h2 className="section-title" id="ci-token-title">
          A token for CI
        </h2>
        <CiTokenPanel tokenName={ciTokenName(environment?.handle ?? app.environmentId, app.handle)} />
      </section>
    </div>
  );
}
