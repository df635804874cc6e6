import { useSearchParams } from 'react-router';
import { ErrorPage } from '../../error-page.tsx';

/** spec 3 §2 /error: "Something's gone wrong" with the message from ?message=. */
function ErrorRoute() {
  const [params] = useSearchParams();
  return <ErrorPage message={params.get('message') ?? ''} />;
}

export { ErrorRoute as Component };
