import { Link } from 'react-router';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import {
  API_FAMILIES,
  useOpenApiDocuments,
} from '../../../features/api-reference/api/use-openapi-documents.ts';
import {
  type ApiFamilyDocument,
  ApiReference,
} from '../../../features/api-reference/components/api-reference.tsx';
import { paths } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session-store.ts';
import { BrandMark } from '../../brand.tsx';

/**
 * The API reference (issue 8): the OpenAPI documents every service family serves. They are public, so
 * the page is too: outside the session guard, in its own frame, reachable signed in (from the sidebar
 * footer, with a way back to the console) or signed out (from the sign-in pages' footer).
 */
function ApiReferenceRoute() {
  const { phase } = useSession();
  const queries = useOpenApiDocuments();
  const families: ApiFamilyDocument[] = API_FAMILIES.flatMap(({ family, label }, index) => {
    const query = queries[index];
    return query ? [{ family, label, query }] : [];
  });
  return (
    <div className="api-reference-page">
      <header className="api-reference-topbar">
        <Link to={paths.root} aria-label="Berth home">
          <BrandMark />
        </Link>
        <nav className="api-reference-topbar-links" aria-label="Console">
          {phase === 'authenticated' ? (
            <ButtonLink to={paths.root} variant="secondary" size="sm">
              Back to console
            </ButtonLink>
          ) : (
            <>
              <Link to={paths.login}>Log in</Link>
              <ButtonLink to={paths.signup} variant="primary" size="sm">
                Sign up
              </ButtonLink>
            </>
          )}
        </nav>
      </header>
      <main className="api-reference-main">
        <PageHeader
          title="API reference"
          description="Every endpoint of the Berth services, generated from the schemas the server validates with. Send the access token as a bearer token unless an endpoint is marked Public."
        />
        <ApiReference families={families} />
      </main>
    </div>
  );
}

export { ApiReferenceRoute as Component };
