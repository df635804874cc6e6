import { isRouteErrorResponse, useNavigate, useRouteError } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { AuthLayout } from './layouts/auth-layout.tsx';
import { paths } from './paths.ts';

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

function messageOf(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : '';
}

/** spec 3 §2: routes are wrapped in an error boundary. */
export function RouteErrorBoundary() {
  return <ErrorPage message={messageOf(useRouteError())} />;
}
