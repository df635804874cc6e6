import { ssoFailureMessage } from '@berth/core';
import { Link, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { paths } from '../../../lib/paths.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';

/**
 * spec 1 §2 /sso/failure?message: where a failed SSO login lands (contract §3.8: `redirect_uri?message=`).
 * Each code reads as spec 1 §8's text, an unknown one as its catch-all; several `message` parameters are
 * joined. Each comes with a Back to Login link.
 */
function SsoFailureRoute() {
  const [search] = useSearchParams();
  const codes = search.getAll('message');
  const texts = [...new Set((codes.length ? codes : ['unknown']).map((code) => ssoFailureMessage(code)))];
  return (
    <AuthLayout title="Single sign-on failed">
      <Banner variant="error">{texts.join(' ')}</Banner>
      <p>
        <Link to={paths.login}>Back to Login</Link>
      </p>
    </AuthLayout>
  );
}

export { SsoFailureRoute as Component };
