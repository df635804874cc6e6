import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';

/** spec 3 §4: the message for a signed-in visitor of a sign-in page. */
export const ALREADY_LOGGED_IN = 'You are already logged in!';

export function AlreadyLoggedIn({ continueTo, logoutTo }: { continueTo: string; logoutTo: string }) {
  return (
    <Banner variant="info" title={ALREADY_LOGGED_IN}>
      <p>
        <Link to={continueTo}>Continue to the dashboard</Link> or <Link to={logoutTo}>log out</Link> to use
        another account.
      </p>
    </Banner>
  );
}
