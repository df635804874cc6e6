import { isRouteErrorResponse, useNavigate, useRouteError } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { messageOf } from '../lib/error-message.ts';
import { paths } from '../lib/paths.ts';
import { AuthLayout } from './layouts/auth-layout.tsx';

/** spec 1 §8: the generic error page. */
export const SOMETHING_WENT_WRONG = "Something's gone wrong";

export function ErrorPage({ message }: { message: string }) {
  const navigate = useNavigate();
  return (
    <AuthLayout title={SOMETHING_WENT_WRONG} subtitle={message || undefined}>
      <div className="form-actions">
        <Button variant="secondary" size="lg" onClick={() => navigate(-1)}>
          Back
        </Button>
        <Button size="lg" onClick={() => navigate(paths.login)}>
          Login
        </Button>
      </div>
    </AuthLayout>
  );
}

/** A routing answer (404...) by its status; anything else thrown by its message. */
function routeErrorMessage(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  return error instanceof Error || typeof error === 'string' ? messageOf(error) : '';
}

/** spec 3 §2: routes are wrapped in an error boundary. */
export function RouteErrorBoundary() {
  return <ErrorPage message={routeErrorMessage(useRouteError())} />;
}
