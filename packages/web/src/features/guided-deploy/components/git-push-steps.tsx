import { SCAN_BRANCH } from '@berth/core';
import { Link } from 'react-router';
import { CopyableText } from '../../../components/ui/copyable-text.tsx';
import { paths } from '../../../lib/paths.ts';
import './guided-deploy.css';

/**
 * The app's git remote (Berth's git over HTTP, docker stacks) and the push that hands the code to the
 * scan: pushed to SCAN_BRANCH it is stored, not deployed (a push to main deploys at once), so it is
 * scanned and configured first.
 */
export function GitPushSteps({ remote }: { remote: string }) {
  return (
    <ol className="command-list" aria-label="Push your code">
      <li>
        <h3>Add Berth’s git remote</h3>
        <CopyableText text={`git remote add berth ${remote}`} label="the remote command" />
      </li>
      <li>
        <h3>Push your code to the scan branch</h3>
        <CopyableText text={`git push berth main:${SCAN_BRANCH}`} label="the scan push command" />
        <p className="muted">
          From a branch named master, push <code>master:{SCAN_BRANCH}</code>. When git asks, give any user
          name and an <Link to={paths.settingsTokens}>access token</Link> with scope manage as the password.
        </p>
      </li>
    </ol>
  );
}
