import { Banner } from './banner.tsx';
import { Button } from './button.tsx';
import './resource-page.css';

export interface SupportRequest {
  subject: string;
  body: string;
}

/** A mailto: link with the request prefilled; the user's mail client sends it (no recipient is configured). */
export function supportRequestHref(request: SupportRequest): string {
  const query = new URLSearchParams({ subject: request.subject, body: request.body });
  // mailto wants %20 for spaces, not the form encoding's '+'.
  return `mailto:?${query.toString().replace(/\+/g, '%20')}`;
}

/**
 * spec 2 §2: stack deprovisions and dedicated stack requests are support requests. Berth has no support
 * desk or request endpoint yet, so the console says exactly that and shows what would be sent, with a
 * prefilled email the user addresses to their platform operator. Nothing is sent by the console.
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
        This is a request to your platform's support team: Berth does not carry it out by itself, and the
        console has no support desk to file it in yet. Confirm to open an email with the request below;
        address it to your operator's support and send it.
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
        <a className="button button-primary button-md" href={supportRequestHref(request)}>
          <span>Confirm</span>
        </a>
      </div>
    </section>
  );
}
