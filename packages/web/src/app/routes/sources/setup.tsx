import { Link } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import '../../../features/sources/components/sources.css';
import { paths } from '../../../lib/paths.ts';

/**
 * spec 3 §2 /sources/setup. Berth has no separate "connect a repository" step: a source is recorded
 * by the first git deploy of an app, so this page says how that happens rather than offering a form.
 */
function SourceSetupRoute() {
  return (
    <>
      <PageHeader title="Set up a source" description="How a repository becomes a source in Berth." />
      <section className="card setup-steps" aria-label="How sources appear">
        <p>
          A source is created automatically the first time an app is deployed from a git repository. There is
          nothing to connect beforehand: deploy an app, and its repository appears in{' '}
          <Link to={paths.sources}>Sources</Link> with the apps and deployments that use it.
        </p>
        <ol>
          <li>
            Create an app in an environment (<Link to={paths.environments}>Environments</Link>, then New App).
          </li>
          <li>
            On the app&apos;s page, choose Deploy and give the branch, tag or commit to deploy. Tools can do
            the same through the API:
          </li>
        </ol>
        <pre>
          <code>POST /api/apps/&lt;app id&gt;/operations {'{"type": "deploy", "git_ref": "main"}'}</code>
        </pre>
        <p>
          The repository is the app&apos;s Git Remote, shown on its page. Receiving a <code>git push</code> to
          that remote needs a runtime with a git endpoint (the docker runtime); the simulated runtime of the
          default stack has no remote, and simulates a build of the ref it is given instead.
        </p>
        <p>
          Each deploy is recorded as a deployment of the source with its git ref and commit; the commits that
          are live in your apps show as dots in the sources list.
        </p>
      </section>
    </>
  );
}

export { SourceSetupRoute as Component };
