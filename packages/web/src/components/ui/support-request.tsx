import { to } from '../../lib/paths.ts';
import { Banner } from './banner.tsx';
import { Button, ButtonLink } from './button.tsx';
import './resource-page.css';

export interface SupportRequest {
  subject: string;
  body: string;
}

/** The support form (/support) with the request filled in. */
export function supportRequestHref(request: SupportRequest): string {
  return to.support({ subject: request.subject, description: request.body });
}

/**
 * spec 2 §2 and spec 1 §4: stack deprovisions, dedicated stack requests and account deletions are support
 * requests. The console shows what will be asked, then opens the support form with it filled in; the
 * ticket is sent from there (nothing is sent before the user submits it).
 */
export function SupportRequestConfirmation({
  title,
  request,
  onCancel,
}: {
  title: string;
  request: SupportRequest;
  onCancel: () => void;
}) {
  return (
    <section className="card card-body section-stack" aria-label={title}>
      <Banner variant="info" title={title}>
        This is a request to your platform's support team: Berth does not carry it out by itself. Confirm to
        open the support form with the request below filled in, then submit the ticket.
      </Banner>
      <div>
        <p className="field-label">Subject</p>
        <pre className="request-preview">{request.subject}</pre>
      </div>
      <div>
        <p className="field-label">Message</p>
        <pre className="request-preview">{request.body}</pre>
      </div>
      <div className="page-actions">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <ButtonLink variant="primary" to={supportRequestHref(request)}>
          Confirm
        </ButtonLink>
      </div>
    </section>
  );
}
