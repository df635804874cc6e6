import { homeMessages } from '@berth/core';
import type { ReactNode } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';

/** spec 3 §2 "A dismissible beta feedback banner": dismissed, it stays so (the server keeps it). */
export function FeedbackBanner({
  onDismiss,
  dismissing,
  feedbackLink,
}: {
  onDismiss: () => void;
  dismissing: boolean;
  /** Where feedback goes (the support page), when this installation has it. */
  feedbackLink?: ReactNode;
}) {
  return (
    <Banner
      variant="info"
      title={homeMessages.feedbackTitle}
      actions={
        <>
          {feedbackLink}
          <Button variant="secondary" size="sm" onClick={onDismiss} disabled={dismissing}>
            Dismiss
          </Button>
        </>
      }
    >
      {homeMessages.feedbackText}
    </Banner>
  );
}
